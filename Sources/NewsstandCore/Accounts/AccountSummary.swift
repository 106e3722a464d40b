import Foundation

/// An account as the accounts screen lists it: the account and how many subscriptions come from it.
public struct AccountSummary: Sendable, Equatable {
    public var account: Account
    public var subscriptions: Int

    public init(account: Account, subscriptions: Int) {
        self.account = account
        self.subscriptions = subscriptions
    }

    /// Every account of the library, in the order they were added.
    public static func all(in store: LibraryStore) throws -> [AccountSummary] {
        try store.accounts().map { AccountSummary(account: $0, subscriptions: try store.publications(accountID: $0.id).filter(\.isSubscribed).count) }
    }
}

import NewsstandCore

/// The accounts screen's state: the accounts once loaded (nil while they load), and the cursor.
public struct AccountsState: Equatable, Sendable {
    public var accounts: [AccountSummary]?
    public var cursor: ListCursor

    public init(accounts: [AccountSummary]? = nil, cursor: ListCursor = ListCursor()) {
        self.accounts = accounts
        self.cursor = cursor
    }

    public var selected: AccountSummary? {
        guard let accounts, accounts.indices.contains(cursor.selection) else { return nil }
        return accounts[cursor.selection]
    }
}

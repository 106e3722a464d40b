import Foundation

/// Subscribing, unsubscribing and renaming done on the account's server, so every reader of the account sees it.
extension AccountSync {
    /// Subscribes the account to `feedURL` on its server (which fetches the feed), then syncs the account; the new
    /// publication, or nil when the sync did not bring it (its report says why).
    public func subscribe(_ account: Account, to feedURL: URL) throws -> (publication: Publication?, report: Report) {
        let client = try client(account)
        let stream = try client.subscribe(to: feedURL)
        let report = sync(account)
        let publication = try store.publications(accountID: account.id).first { $0.accountStream == stream }
        return (publication, report)
    }

    /// Unsubscribes the account from a publication's feed on the server; the library is the caller's to change after.
    public func unsubscribe(_ publication: Publication) throws {
        guard let account = try account(of: publication), let stream = publication.accountStream else { return }
        try client(account).unsubscribe(streamID: stream)
    }

    /// Renames a publication on the account's server, then here.
    public func rename(_ publication: Publication, to title: String) throws {
        if let account = try account(of: publication), let stream = publication.accountStream {
            try client(account).rename(streamID: stream, to: title)
        }
        try store.renamePublication(id: publication.id, to: title)
    }

    private func account(of publication: Publication) throws -> Account? {
        guard let id = publication.accountID else { return nil }
        return try store.accounts().first { $0.id == id }
    }
}

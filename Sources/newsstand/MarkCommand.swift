import Foundation
import NewsstandCore

/// `newsstand mark ISSUE... --read|--unread|--star|--unstar`: marks issues as `N` and `*` do on the shelf. Issues from
/// an account are marked on its server too: sent at once, or queued while it cannot be reached and sent at the next sync.
enum MarkCommand {
    static func run(_ arguments: inout ArgumentList) throws {
        let read = arguments.flag("--read")
        let unread = arguments.flag("--unread")
        let star = arguments.flag("--star")
        let unstar = arguments.flag("--unstar")
        let references = try arguments.positionals("issue")
        try arguments.finish()
        guard !references.isEmpty else { throw UsageError("name at least one issue to mark (see `newsstand list`)") }
        guard [read, unread].filter({ $0 }).count + [star, unstar].filter({ $0 }).count >= 1, !(read && unread), !(star && unstar) else {
            throw UsageError("say what to mark: --read or --unread, and/or --star or --unstar")
        }
        let context = try LibraryContext.open()
        let issues = try references.map(context.issue)
        for issue in issues {
            if read || unread { try context.store.setRead(read, issueID: issue.id) }
            if star || unstar { try context.store.setStarred(star, issueID: issue.id) }
        }
        let what = [read ? "read" : unread ? "unread" : nil, star ? "starred" : unstar ? "unstarred" : nil].compactMap { $0 }.joined(separator: " and ")
        print("Marked \(issues.count == 1 ? try context.reference(to: issues[0]) : "\(issues.count) issues") \(what).")

        // Send what the accounts' servers are waiting for now.
        let sessions = AccountSessions(store: CredentialStore(paths: context.paths))
        let sync = AccountSync(store: context.store, sessions: sessions, http: context.client)
        let accountIDs = Set(try issues.compactMap { try context.store.publication(id: $0.publicationID)?.accountID })
        for account in try context.store.accounts() where accountIDs.contains(account.id) {
            do {
                _ = try sync.sendMarks(of: account)
            } catch {
                print("Not sent to \(AccountCommands.server(account.url)) yet (\(error)); the next sync sends it.")
            }
        }
    }
}

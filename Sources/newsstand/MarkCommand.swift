import Foundation
import NewsstandCore

/// `newsstand mark ITEM... --read|--unread|--star|--unstar`: marks issues as `N` and `*` do on the shelf, and headlines
/// (`PUBLICATION/headline-N`, see ``HeadlineReference``) as they do on the headlines screen. Items from an account are
/// marked on its server too: sent at once, or queued while it cannot be reached and sent at the next sync.
enum MarkCommand {
    /// One item named on the command line.
    private enum Target {
        case issue(Issue)
        case headline(HeadlineReference)

        var publicationID: Int64 {
            switch self {
            case .issue(let issue): issue.publicationID
            case .headline(let reference): reference.publication.id
            }
        }
    }

    static func run(_ arguments: inout ArgumentList) throws {
        let read = arguments.flag("--read")
        let unread = arguments.flag("--unread")
        let star = arguments.flag("--star")
        let unstar = arguments.flag("--unstar")
        let references = try arguments.positionals("issue or headline")
        try arguments.finish()
        guard !references.isEmpty else { throw UsageError("name at least one issue or headline to mark (see `newsstand list` and `newsstand headlines`)") }
        guard [read, unread].filter({ $0 }).count + [star, unstar].filter({ $0 }).count >= 1, !(read && unread), !(star && unstar) else {
            throw UsageError("say what to mark: --read or --unread, and/or --star or --unstar")
        }
        let context = try LibraryContext.open()
        // Every name is found before anything is marked: a wrong one changes nothing.
        let targets = try references.map { reference -> Target in
            if try context.store.findIssues(reference).isEmpty, let headline = try HeadlineReference.find(reference, in: context.store) {
                return .headline(headline)
            }
            return .issue(try context.issue(reference))
        }
        for target in targets {
            switch target {
            case .issue(let issue):
                if read || unread { try context.store.setRead(read, issueID: issue.id) }
                if star || unstar { try context.store.setStarred(star, issueID: issue.id) }
            case .headline(let headline):
                if read || unread { try context.store.setHeadlineRead(read, publicationID: headline.publication.id, key: headline.key) }
                if star || unstar { try context.store.setHeadlineStarred(star, publicationID: headline.publication.id, key: headline.key) }
            }
        }
        let what = [read ? "read" : unread ? "unread" : nil, star ? "starred" : unstar ? "unstarred" : nil].compactMap { $0 }.joined(separator: " and ")
        print("Marked \(try description(of: targets, context)) \(what).")

        // Send what the accounts' servers are waiting for now.
        let sessions = AccountSessions(store: CredentialStore(paths: context.paths))
        let sync = AccountSync(store: context.store, sessions: sessions, http: context.client)
        let accountIDs = Set(try targets.compactMap { try context.store.publication(id: $0.publicationID)?.accountID })
        for account in try context.store.accounts() where accountIDs.contains(account.id) {
            do {
                _ = try sync.sendMarks(of: account)
            } catch {
                print("Not sent to \(AccountCommands.server(account.url)) yet (\(error)); the next sync sends it.")
            }
        }
    }

    /// One item's name, or how many issues and headlines.
    private static func description(of targets: [Target], _ context: LibraryContext) throws -> String {
        if targets.count == 1 {
            switch targets[0] {
            case .issue(let issue): return try context.reference(to: issue)
            case .headline(let headline): return headline.name
            }
        }
        let headlines = targets.filter { if case .headline = $0 { true } else { false } }.count
        let issues = targets.count - headlines
        return [issues == 0 ? nil : "\(issues) issue\(issues == 1 ? "" : "s")", headlines == 0 ? nil : "\(headlines) headline\(headlines == 1 ? "" : "s")"]
            .compactMap { $0 }.joined(separator: " and ")
    }
}

import Foundation
import NewsstandContent
import NewsstandCore

/// `newsstand position ISSUE [--json]` (the local place and, with progress sync on, the server's) and the positions
/// part of `newsstand sync` (every downloaded issue's: queued ones sent, then each pulled and compared).
enum ProgressSyncCommands {
    static func service(_ context: LibraryContext) -> ProgressSyncService {
        ProgressSyncService(settings: context.configuration.progressSync, store: context.store, paths: context.paths,
                            credentials: CredentialStore(paths: context.paths), http: context.client)
    }

    static func position(_ arguments: inout ArgumentList) throws {
        let json = arguments.flag("--json")
        let reference = try arguments.positional("issue")
        try arguments.finish()
        let context = try LibraryContext.open()
        let issue = try context.issue(reference)
        guard issue.state == .available else { throw CommandFailure("\(issue.title) is not downloaded") }
        let sync = service(context)
        let book: EPUBBook
        do { book = try sync.book(of: issue) } catch { throw CommandFailure("cannot open \(issue.title): \(error)") }
        let place = ProgressSyncPlace(book: book)
        let local = try context.store.readingPosition(issueID: issue.id)
        let localPercentage = local.map { place.progress(of: $0).percentage }
        var remote: ProgressSyncService.Remote?
        var problem: String?
        if sync.settings.isOn {
            do { remote = try sync.pull(issue, book: book) } catch { problem = "\(error)" }
        }
        if json {
            var object: [String: Any] = ["issue": try context.reference(to: issue), "title": issue.title, "progress_sync": sync.settings.isOn]
            if let local {
                object["local"] = ["article": local.articleIndex + 1, "article_title": place.title(of: local), "block": local.blockIndex,
                                   "offset": local.characterOffset, "percentage": KOSyncRounding.percent(localPercentage ?? 0)]
            }
            if let remote {
                var server: [String: Any] = ["device": remote.device, "percentage": remote.percentage, "article": remote.position.articleIndex + 1,
                                             "article_title": remote.articleTitle, "progress": remote.progress, "this_device": remote.isOurs]
                if let timestamp = remote.timestamp { server["time"] = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(timestamp))) }
                object["server"] = server
            }
            if let problem { object["problem"] = problem }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
            if let problem { throw CommandFailure("server: \(problem)") }
            return
        }
        print(issue.title)
        if let local {
            print("Here: \(percentText(localPercentage ?? 0)), article \(local.articleIndex + 1) “\(place.title(of: local))”")
        } else {
            print("Here: not opened yet")
        }
        guard sync.settings.isOn else { return }
        if let problem { throw CommandFailure("server: \(problem)") }
        guard let remote else {
            print("Server: no position yet")
            return
        }
        let when = remote.timestamp.map { " at " + DateFormatter.localizedString(from: Date(timeIntervalSince1970: TimeInterval($0)), dateStyle: .medium, timeStyle: .short) } ?? ""
        print("Server: \(remote.device)\(remote.isOurs ? " (this device)" : "") at \(percentText(remote.percentage)), article \(remote.position.articleIndex + 1) “\(remote.articleTitle)”\(when)")
    }

    static func percentText(_ value: Double) -> String { "\(Int((value * 100).rounded()))%" }

    /// The positions part of `newsstand sync` (see `ProgressSyncService.syncEveryIssue`): lines to print, and
    /// whether something failed.
    static func syncPositions(_ context: LibraryContext) -> (lines: [String], failed: Bool) {
        let sync = service(context)
        guard sync.settings.isOn else { return ([], false) }
        let summary = sync.syncEveryIssue()
        if let problem = summary.problem {
            let kept = problem.isWorthRetrying ? "; the places are kept and sent next time" : ""
            return (["Positions: \(problem)\(kept)"], true)
        }
        let elsewhere = summary.elsewhere.map { "\($0.issue.handle): \($0.remote.device) is at \(percentText($0.remote.percentage)), “\($0.remote.articleTitle)”" }
        return (["Positions: \(summary.sent) sent" + (elsewhere.isEmpty ? "" : "; read since on another device: " + elsewhere.joined(separator: "; "))], false)
    }
}

/// Percentages as the commands print them in JSON: four places, as KOReader rounds them.
enum KOSyncRounding {
    static func percent(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
}

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

    /// Sends every queued position, then pushes each downloaded issue's place when it is not on the server yet and
    /// reports the ones another device is further in. Lines to print, and whether something failed.
    static func syncPositions(_ context: LibraryContext) -> (lines: [String], failed: Bool) {
        let sync = service(context)
        guard sync.settings.isOn else { return ([], false) }
        var lines: [String] = []
        do {
            _ = try sync.client()
        } catch {
            return (["Positions: \(error)"], true)
        }
        let issues = ((try? context.store.allIssues()) ?? []).filter { $0.state == .available }
        var pushed = 0, elsewhere: [String] = []
        for issue in issues {
            guard let book = try? sync.book(of: issue),
                  let local = try? sync.localPosition(of: issue, book: book) else { continue }
            do {
                let remote = try sync.pull(issue, book: book)
                let localIsNewer = remote.map { ($0.timestamp ?? 0) < Int(localChangeTime(issue, context)) } ?? true
                if let remote, remote.progress == local.progress {
                    continue
                } else if remote == nil || remote!.isOurs || localIsNewer {
                    try sync.queue(local, issueID: issue.id)
                } else if let remote {
                    elsewhere.append("\(issue.handle): \(remote.device) is at \(percentText(remote.percentage)), “\(remote.articleTitle)”")
                }
            } catch let problem as ProgressSyncService.Problem where !problem.isWorthRetrying {
                if case .noDocumentID = problem { continue }
                return (lines + ["Positions: \(problem)"], true)
            } catch {
                try? sync.queue(local, issueID: issue.id)
            }
        }
        do {
            pushed = try sync.sendQueued()
        } catch {
            return (lines + ["Positions: \(error); they are kept and sent next time"], true)
        }
        lines.append("Positions: \(pushed) sent" + (elsewhere.isEmpty ? "" : "; further on elsewhere: " + elsewhere.joined(separator: "; ")))
        return (lines, false)
    }

    /// When the issue's local position last changed (Unix seconds); 0 when unknown.
    private static func localChangeTime(_ issue: Issue, _ context: LibraryContext) -> Double {
        (try? context.store.readingPositionUpdate(issueID: issue.id)) ?? 0
    }
}

/// Percentages as the commands print them in JSON: four places, as KOReader rounds them.
enum KOSyncRounding {
    static func percent(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
}

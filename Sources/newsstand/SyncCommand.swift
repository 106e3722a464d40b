import Foundation
import NewsstandCore
import NewsstandRuntime
import Synchronization

/// `newsstand sync`: refreshes every subscription, downloads new issues per policy, keeps to the
/// storage limits, runs `notify-program` when new issues arrived, prints a summary and exits (non-zero when
/// something failed). Made for cron and timers.
enum SyncCommand {
    static func run(_ arguments: inout ArgumentList) throws {
        let quiet = arguments.flag("--quiet")
        try arguments.finish()
        let context = try LibraryContext.open()
        let failures = FailureLog()
        let downloads = DownloadQueue(store: context.store, paths: context.paths, policy: DownloadPolicy(configuration: context.configuration),
                                      client: context.client) { event in
            if case .failed(let issueID, let reason) = event { failures.add(issueID: issueID, reason: reason) }
        }
        let sync = SyncService(store: context.store, paths: context.paths, limits: context.configuration.autoDownloadLimits,
                               client: context.client, maxCatalogEntries: context.configuration.maxCatalogEntries,
                               maxHeadlines: context.configuration.maxHeadlines,
                               accountSessions: AccountSessions(store: CredentialStore(paths: context.paths)),
                               fullText: context.configuration.fullText)
        downloads.resumeInterrupted()
        let summary = sync.syncAndQueue(into: downloads)
        let reports = summary.publications
        _ = downloads.waitUntilIdle()
        let removed = sync.enforceLimits(budget: context.configuration.storageBudget)

        var problems = 0
        for account in summary.accounts {
            var line = "Account \(account.account.user) at \(AccountCommands.server(account.account.url)): "
            if let problem = account.problem {
                line += problem
                problems += 1
            } else {
                line += account.newItems == 0 ? "up to date" : "\(account.newItems) new item\(account.newItems == 1 ? "" : "s")"
                if account.markedRead > 0 { line += ", \(account.markedRead) read elsewhere" }
            }
            if !quiet || account.problem != nil { print(line) }
        }
        for report in reports {
            let arrived = report.outcome.newIssueNames.count
            var line = "\(report.publication.title): "
            if let problem = report.outcome.problem {
                line += problem.hasPrefix(report.publication.title + ": ") ? String(problem.dropFirst(report.publication.title.count + 2)) : problem
                problems += 1
            } else {
                line += arrived == 0 ? "up to date" : "\(arrived) new issue\(arrived == 1 ? "" : "s")"
            }
            let queued = report.queued.map { issue in
                failures.reason(for: issue.id).map { "\(issue.handle) failed (\($0))" } ?? "\(issue.handle) downloaded"
            }
            if !queued.isEmpty { line += "; " + queued.joined(separator: ", ") }
            if report.articlesFetched > 0 {
                line += "; \(report.articlesFetched) whole article\(report.articlesFetched == 1 ? "" : "s") kept"
            }
            if let reason = report.heldReason, !report.held.isEmpty {
                line += "; \(report.held.map(\.handle).joined(separator: ", ")) held back (\(reason)): a later sync downloads \(report.held.count == 1 ? "it" : "them")"
            }
            if !quiet || report.outcome.problem != nil { print(line) }
        }
        if !removed.isEmpty && !quiet {
            print("Removed to keep within limits: " + removed.map(\.handle).joined(separator: ", "))
        }
        if let command = context.configuration.notifyProgram,
           let notice = NewIssuesNotice(outcomes: reports.map(\.outcome), store: context.store),
           let failure = HookRunner.notify(command, notice) {
            FileHandle.standardError.write(Data("newsstand: \(failure)\n".utf8))
        }
        let failedDownloads = failures.count
        if reports.isEmpty && summary.accounts.isEmpty && !quiet { print("No subscriptions. Add one with: newsstand subscribe URL") }
        let positions = ProgressSyncCommands.syncPositions(context)
        for line in positions.lines where !quiet || positions.failed { print(line) }
        if positions.failed { problems += 1 }
        if problems > 0 || failedDownloads > 0 {
            throw CommandFailure("sync finished with \(problems) feed problem\(problems == 1 ? "" : "s") and \(failedDownloads) failed download\(failedDownloads == 1 ? "" : "s")")
        }
    }

    /// Download failures reported from the queue's thread.
    final class FailureLog: Sendable {
        private let reasons = Mutex<[Int64: String]>([:])
        func add(issueID: Int64, reason: String) { reasons.withLock { $0[issueID] = reason } }
        func reason(for issueID: Int64) -> String? { reasons.withLock { $0[issueID] } }
        var count: Int { reasons.withLock { $0.count } }
    }
}

import Foundation
import NewsstandCore
import Synchronization

/// `newsstand download ISSUE...`: downloads in the foreground with progress on stderr; exit status 1 if any fails.
///
/// A download that was interrupted (by a crash, a kill or a pause in the shelf) continues from its
/// partial file and says "resumed at N%".
enum DownloadCommand {
    static func run(_ arguments: inout ArgumentList) throws {
        let references = try arguments.positionals("issue name")
        try arguments.finish()
        let context = try LibraryContext.open()
        defer { context.store.close() }
        // An issue marked available whose folder went missing is downloaded again, not skipped.
        _ = try? context.store.reconcile(paths: context.paths)
        var issues: [Issue] = []
        for reference in references {
            let issue = try context.issue(reference)
            if !issues.contains(where: { $0.id == issue.id }) { issues.append(issue) }
        }
        let wanted = issues.filter { issue in
            if issue.state == .available { print("\(issue.title) is already downloaded.") }
            return issue.state != .available
        }
        guard !wanted.isEmpty else { return }

        let titles = Dictionary(uniqueKeysWithValues: wanted.map { ($0.id, $0.title) })
        // Carriage-return progress only makes sense for one issue on a terminal; otherwise a line per 10%.
        let inPlace = isatty(STDERR_FILENO) == 1 && wanted.count == 1
        let outcomes = OutcomeBox()
        let policy = DownloadPolicy(configuration: context.configuration)
        let queue = DownloadQueue(store: context.store, paths: context.paths, policy: policy, client: context.client) { event in
            func say(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
            switch event {
            case .started(let issueID, let resumedAt?):
                guard let title = titles[issueID] else { return }
                say("\(inPlace ? "\r" : "")\(title): resumed at \(Int(resumedAt * 100))%\n")
            case .progressed(let issueID, let fraction, _, _, _):
                guard let title = titles[issueID] else { return }
                let percent = Int(fraction * 100)
                if inPlace {
                    say("\r\(title): \(percent)%   ")
                } else if outcomes.shouldPrintMilestone(percent, issueID: issueID) {
                    say("\(title): \(percent)%\n")
                }
            case .retrying(let issueID, let attempt, let delay, let reason):
                guard let title = titles[issueID] else { return }
                say("\(inPlace ? "\r" : "")\(title): retrying in \(String(format: "%.1f", delay)) s (attempt \(attempt) of \(policy.maxAttempts)): \(reason)\n")
            case .waiting(let issueID, let reason):
                guard let title = titles[issueID] else { return }
                say("\(inPlace ? "\r" : "")\(title): \(reason); waiting for it\n")
            case .installed(let issueID):
                guard let title = titles[issueID] else { return }
                say("\(inPlace ? "\r" : "")\(title): 100%\n")
                outcomes.set(issueID, failure: nil)
            case .failed(let issueID, let reason):
                guard titles[issueID] != nil else { return }
                if inPlace { say("\r") }
                outcomes.set(issueID, failure: reason)
            default:
                break
            }
        }
        for issue in wanted { queue.enqueue(issueID: issue.id) }
        _ = queue.waitUntilIdle()

        var failures: [String] = []
        for issue in wanted {
            switch outcomes.outcome(issue.id) {
            case .some(nil): print("Downloaded \(issue.title).")
            case .some(let reason?): failures.append("\(issue.title): download failed: \(reason)")
            case nil: failures.append("\(issue.title): download did not finish")
            }
        }
        guard !failures.isEmpty else { return }
        for failure in failures.dropLast() { FileHandle.standardError.write(Data("newsstand: \(failure)\n".utf8)) }
        throw CommandFailure(failures.last!)
    }

    /// What happened to each issue, set from the queue's thread.
    final class OutcomeBox: Sendable {
        private let state = Mutex((outcomes: [Int64: String?](), milestones: [Int64: Int]()))

        func set(_ issueID: Int64, failure: String?) { state.withLock { $0.outcomes[issueID] = .some(failure) } }
        /// nil: no outcome; .some(nil): installed; .some(reason): failed.
        func outcome(_ issueID: Int64) -> String?? { state.withLock { $0.outcomes[issueID] } }

        /// True once per ten percent and issue, for progress lines when stderr is not a terminal.
        func shouldPrintMilestone(_ percent: Int, issueID: Int64) -> Bool {
            state.withLock { state in
                guard percent / 10 > state.milestones[issueID, default: -1] else { return false }
                state.milestones[issueID] = percent / 10
                return true
            }
        }
    }
}

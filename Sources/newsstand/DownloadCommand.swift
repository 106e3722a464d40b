import Foundation
import NewsstandCore

/// `newsstand download ISSUE`: downloads in the foreground with progress on stderr; non-zero exit on failure.
enum DownloadCommand {
    static func run(_ arguments: inout ArgumentList) throws {
        let reference = try arguments.positional("issue name")
        try arguments.finish()
        let context = try LibraryContext.open()
        let issue = try context.issue(reference)
        if issue.state == .available {
            print("\(issue.title) is already downloaded.")
            return
        }
        let isTerminal = isatty(STDERR_FILENO) == 1
        let outcome = OutcomeBox()
        let queue = DownloadQueue(store: context.store, paths: context.paths, maxConcurrent: context.configuration.maxDownloads) { event in
            switch event {
            case .progressed(let issueID, let fraction, _, _) where issueID == issue.id:
                let percent = Int(fraction * 100)
                if isTerminal {
                    FileHandle.standardError.write(Data("\r\(issue.title): \(percent)%   ".utf8))
                } else if outcome.shouldPrintMilestone(percent) {
                    FileHandle.standardError.write(Data("\(issue.title): \(percent)%\n".utf8))
                }
            case .installed(let issueID) where issueID == issue.id:
                outcome.set(nil)
            case .failed(let issueID, let reason) where issueID == issue.id:
                outcome.set(reason)
            default:
                break
            }
        }
        queue.enqueue(issueID: issue.id)
        _ = queue.waitUntilIdle()
        if isTerminal { FileHandle.standardError.write(Data("\r".utf8)) }
        if let failure = outcome.failure {
            throw CommandFailure("\(issue.title): download failed: \(failure)")
        }
        FileHandle.standardError.write(Data("\(issue.title): 100%\n".utf8))
        print("Downloaded \(issue.title).")
    }

    /// The result of the download, set from the queue's thread.
    final class OutcomeBox: @unchecked Sendable {
        private let lock = NSLock()
        private var reason: String?
        private var lastMilestone = -1

        func set(_ failure: String?) { lock.withLock { reason = failure } }
        var failure: String? { lock.withLock { reason } }

        /// True once per ten percent, for progress lines when stderr is not a terminal.
        func shouldPrintMilestone(_ percent: Int) -> Bool {
            lock.withLock {
                guard percent / 10 > lastMilestone else { return false }
                lastMilestone = percent / 10
                return true
            }
        }
    }
}

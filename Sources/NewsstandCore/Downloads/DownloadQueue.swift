import Foundation

/// Downloads issues in the background, a bounded number at a time, and installs them.
///
/// All bookkeeping happens on one private serial Dispatch queue; transfers stream on their own
/// queues and installs run on a separate serial queue, so nothing here ever blocks a caller.
/// The library store is kept up to date (state, throttled progress, failure reasons), so
/// another process sees the same picture; `onEvent` reports the same facts as they happen.
public final class DownloadQueue: @unchecked Sendable {
    private struct Job {
        let issue: Issue
        let publication: Publication
        /// Tells this run apart from a later one for the same issue (after a cancel and re-enqueue),
        /// so late callbacks of a cancelled transfer or install are ignored.
        let runID = UUID()
        var assetIndex = 0
        var completedBytes: Int64 = 0
        var transfer: AssetTransfer?
        var progressThrottle = ProgressThrottle()
        var storeThrottle = ProgressThrottle(minimumStep: 0.05, minimumInterval: 1)
    }

    private let store: LibraryStore
    private let paths: LibraryPaths
    private let onEvent: @Sendable (DownloadEvent) -> Void
    private let queue = DispatchQueue(label: "newsstand.downloads")
    private let installQueue = DispatchQueue(label: "newsstand.install")
    private var maxConcurrent: Int
    private var active: [Int64: Job] = [:]
    private var waiting: [Job] = []
    private var idleWaiters: [DispatchSemaphore] = []

    public init(store: LibraryStore, paths: LibraryPaths, maxConcurrent: Int = 3, onEvent: @escaping @Sendable (DownloadEvent) -> Void) {
        self.store = store
        self.paths = paths
        self.maxConcurrent = max(1, maxConcurrent)
        self.onEvent = onEvent
    }

    /// Queues an issue for download (again, if it failed). Does nothing if it is already queued or running.
    public func enqueue(issueID: Int64) {
        queue.async { self.enqueueOnQueue(issueID: issueID) }
    }

    /// Queues every issue that was downloading when the last process stopped.
    public func resumeInterrupted() {
        queue.async {
            for issue in (try? self.store.interruptedDownloads()) ?? [] {
                self.enqueueOnQueue(issueID: issue.id)
            }
        }
    }

    /// Stops an issue's download and forgets its partial files; the issue goes back to not downloaded.
    public func cancel(issueID: Int64) {
        queue.async {
            self.waiting.removeAll { $0.issue.id == issueID }
            if let job = self.active.removeValue(forKey: issueID) {
                job.transfer?.cancel()
                self.removePartials(of: job)
            }
            try? self.store.setState(.notDownloaded, issueID: issueID)
            self.startWaiting()
            self.signalIfIdle()
        }
    }

    /// Changes how many transfers run at once; takes effect immediately.
    public func setMaxConcurrent(_ count: Int) {
        queue.async {
            self.maxConcurrent = max(1, count)
            self.startWaiting()
        }
    }

    /// Issues queued or transferring right now.
    public var pendingIssueIDs: Set<Int64> {
        queue.sync { Set(active.keys).union(waiting.map(\.issue.id)) }
    }

    /// Blocks until nothing is queued, transferring or installing (for the command line and tests).
    public func waitUntilIdle(timeout: TimeInterval = .infinity) -> Bool {
        let semaphore = DispatchSemaphore(value: 0)
        let isIdle = queue.sync { () -> Bool in
            if active.isEmpty && waiting.isEmpty { return true }
            idleWaiters.append(semaphore)
            return false
        }
        if isIdle { return true }
        return semaphore.wait(timeout: timeout.isFinite ? .now() + timeout : .distantFuture) == .success
    }

    // MARK: On the queue

    private func enqueueOnQueue(issueID: Int64) {
        guard active[issueID] == nil, !waiting.contains(where: { $0.issue.id == issueID }) else { return }
        do {
            guard let issue = try store.issue(id: issueID),
                  let publication = try store.publication(id: issue.publicationID) else { return }
            if issue.state == .available { return }
            try store.setState(.downloading, issueID: issueID, progress: issue.state == .downloading ? issue.progress : 0)
            waiting.append(Job(issue: issue, publication: publication))
            onEvent(.queued(issueID: issueID))
            startWaiting()
        } catch {
            onEvent(.failed(issueID: issueID, reason: "the library could not be updated: \(error)"))
        }
    }

    private func startWaiting() {
        while active.count < maxConcurrent, !waiting.isEmpty {
            var job = waiting.removeFirst()
            job.assetIndex = 0
            job.completedBytes = 0
            active[job.issue.id] = job
            startAsset(of: job.issue.id)
        }
    }

    private func startAsset(of issueID: Int64) {
        guard var job = active[issueID] else { return }
        let urls = job.issue.contentURLs
        guard job.assetIndex < urls.count else { return install(job) }
        let index = job.assetIndex
        let runID = job.runID
        let transfer = AssetTransfer(
            url: urls[index], destination: paths.partialFile(issueID: issueID, asset: index),
            onProgress: { [weak self] received, expected in
                guard let self else { return }
                self.queue.async { self.assetProgressed(issueID: issueID, runID: runID, asset: index, received: received, expected: expected) }
            },
            onCompletion: { [weak self] result in
                guard let self else { return }
                self.queue.async { self.assetFinished(issueID: issueID, runID: runID, asset: index, result: result) }
            })
        job.transfer = transfer
        active[issueID] = job
        transfer.start()
    }

    private func assetProgressed(issueID: Int64, runID: UUID, asset: Int, received: Int64, expected: Int64?) {
        guard var job = active[issueID], job.runID == runID, job.assetIndex == asset else { return }
        let count = Double(job.issue.contentURLs.count)
        let fraction: Double
        let total: Int64?
        if let size = job.issue.expectedSize, size > 0 {
            fraction = Double(job.completedBytes + received) / Double(size)
            total = size
        } else {
            let assetFraction = expected.map { $0 > 0 ? Double(received) / Double($0) : 0 } ?? 0
            fraction = (Double(asset) + assetFraction) / count
            total = count == 1 ? expected : nil
        }
        let clamped = min(max(fraction, 0), 0.999)
        if job.progressThrottle.shouldReport(clamped) {
            onEvent(.progressed(issueID: issueID, fraction: clamped, receivedBytes: job.completedBytes + received, totalBytes: total))
        }
        if job.storeThrottle.shouldReport(clamped) {
            try? store.setProgress(clamped, issueID: issueID)
        }
        active[issueID] = job
    }

    private func assetFinished(issueID: Int64, runID: UUID, asset: Int, result: Result<Void, DownloadError>) {
        guard var job = active[issueID], job.runID == runID, job.assetIndex == asset else { return }
        switch result {
        case .failure(let error):
            fail(job, reason: error.description)
        case .success:
            let file = paths.partialFile(issueID: issueID, asset: asset)
            job.completedBytes += FileSize.of(file) ?? 0
            job.assetIndex += 1
            job.transfer = nil
            active[issueID] = job
            startAsset(of: issueID)
        }
    }

    private func install(_ job: Job) {
        let issue = job.issue
        let assets = issue.contentURLs.indices.map { paths.partialFile(issueID: issue.id, asset: $0) }
        let destination = paths.folder(for: issue, of: job.publication)
        installQueue.async {
            let result = Result { try IssueInstaller.install(assets: assets, sourceURLs: issue.contentURLs, for: issue, into: destination) }
            self.queue.async {
                guard self.active[issue.id]?.runID == job.runID else { return } // cancelled meanwhile (and perhaps queued again)
                switch result {
                case .success:
                    self.active[issue.id] = nil
                    self.removePartials(of: job)
                    do {
                        try self.store.setState(.available, issueID: issue.id)
                        self.onEvent(.installed(issueID: issue.id))
                    } catch {
                        self.onEvent(.failed(issueID: issue.id, reason: "the library could not be updated: \(error)"))
                    }
                    self.startWaiting()
                    self.signalIfIdle()
                case .failure(let error):
                    self.fail(job, reason: (error as? DownloadError)?.description ?? "\(error)")
                }
            }
        }
    }

    private func fail(_ job: Job, reason: String) {
        active[job.issue.id] = nil
        removePartials(of: job)
        try? store.setState(.failed(reason: reason), issueID: job.issue.id)
        onEvent(.failed(issueID: job.issue.id, reason: reason))
        startWaiting()
        signalIfIdle()
    }

    private func removePartials(of job: Job) {
        for index in job.issue.contentURLs.indices {
            try? FileManager.default.removeItem(at: paths.partialFile(issueID: job.issue.id, asset: index))
        }
    }

    private func signalIfIdle() {
        guard active.isEmpty && waiting.isEmpty else { return }
        idleWaiters.forEach { $0.signal() }
        idleWaiters.removeAll()
    }
}

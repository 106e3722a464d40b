import Foundation
import Synchronization

/// Downloads issues in the background, a bounded number at a time, and installs them.
///
/// All bookkeeping happens on one private serial Dispatch queue; transfers stream on their own
/// queues and installs run on a separate serial queue, so nothing here ever blocks a caller.
/// The bookkeeping (`Books`) is reached only through `onQueue`, which runs on that queue: the lock
/// around it is never contended, and lets the compiler check that nothing else touches it.
/// The library store is kept up to date (state, throttled progress, failure reasons), so
/// another process sees the same picture; `onEvent` reports the same facts as they happen.
///
/// Partial files survive pauses, transient failures and crashes: a download that starts again
/// continues from what is on disk (see `AssetTransfer`). Transient failures are retried with
/// exponential backoff and full jitter (`DownloadPolicy`); an issue is installed first and only
/// then marked available.
public final class DownloadQueue: Sendable {
    private enum Phase { case transferring, backingOff, installing }

    private struct Job {
        var issue: Issue
        let publication: Publication
        /// Tells this run apart from a later one for the same issue (after a pause, cancel or re-enqueue),
        /// so late callbacks of an abandoned transfer or install are ignored.
        let runID = UUID()
        var phase = Phase.transferring
        var assetIndex = 0
        /// Bytes of the assets before `assetIndex`.
        var completedBytes: Int64 = 0
        /// Attempts that failed with a transient error in this run.
        var failures = 0
        var fraction = 0.0
        var transfer: AssetTransfer?
        var progressThrottle = ProgressThrottle()
        var storeThrottle = ProgressThrottle(minimumStep: 0.05, minimumInterval: 1)
        var rate = TransferRate()
        /// The hold on the issue's lock file while this process transfers or installs it.
        var lock: IssueLock?
    }

    /// What an issue waits for while another process downloads it.
    public static let lockedElsewhereReason = "being downloaded by another Newsstand process"

    private let store: LibraryStore
    private let paths: LibraryPaths
    private let onEvent: @Sendable (DownloadEvent) -> Void
    private let queue = DispatchQueue(label: "newsstand.downloads")
    private let installQueue = DispatchQueue(label: "newsstand.install")
    private let limiter: RateLimiter
    private let client: HTTPClient
    private let environment: AssetTransfer.Environment
    private let books: Mutex<Books>

    /// What the queue keeps track of; used only on `queue` (see `onQueue`).
    private struct Books {
        var policy: DownloadPolicy
        var active: [Int64: Job] = [:]
        var waiting: [Job] = []
        /// Issues another process is downloading (it holds their lock): they take no transfer slot and
        /// try the lock again every `DownloadPolicy.lockRetryInterval` seconds.
        var blocked: [Int64: Job] = [:]
        var idleWaiters: [DispatchSemaphore] = []

        var isIdle: Bool { active.isEmpty && waiting.isEmpty && blocked.isEmpty }
    }

    /// `client` carries every http(s) request, with its logins; the queue owns its rate limit (for downloads:
    /// requests marked rate-limited) and sets it to the policy's.
    public convenience init(store: LibraryStore, paths: LibraryPaths, policy: DownloadPolicy = DownloadPolicy(), client: HTTPClient = .shared,
                            onEvent: @escaping @Sendable (DownloadEvent) -> Void) {
        self.init(store: store, paths: paths, policy: policy, client: client, freeSpace: FreeSpace.available(at:), onEvent: onEvent)
    }

    /// `freeSpace` tells the free bytes of the file system holding a folder (statvfs unless a test says
    /// otherwise); `diskSync` forces files to disk (fsync unless a test records the calls); `beforeWrite` runs
    /// before each block of a response body is written (tests: a slow disk).
    init(store: LibraryStore, paths: LibraryPaths, policy: DownloadPolicy, client: HTTPClient = .shared,
         freeSpace: @escaping @Sendable (URL) -> Int64?, diskSync: DiskSync = .fsync, blockSize: Int = AssetTransfer.writeBufferSize,
         beforeWrite: @escaping @Sendable (Int) -> Void = { _ in }, onEvent: @escaping @Sendable (DownloadEvent) -> Void) {
        self.store = store
        self.paths = paths
        var policy = policy
        policy.maxConcurrent = max(1, policy.maxConcurrent)
        policy.maxAttempts = max(1, policy.maxAttempts)
        policy.stallTimeout = max(1, policy.stallTimeout)
        books = Mutex(Books(policy: policy))
        self.onEvent = onEvent
        self.client = client
        limiter = RateLimiter(bytesPerSecond: policy.bytesPerSecondLimit)
        environment = AssetTransfer.Environment(limiter: limiter, freeSpace: freeSpace, diskSync: diskSync, client: client,
                                                diskReserve: max(0, policy.diskReserve), stallTimeout: policy.stallTimeout,
                                                blockSize: blockSize, beforeWrite: beforeWrite)
        client.setRateLimit(bytesPerSecond: policy.bytesPerSecondLimit)
    }

    /// Queues an issue for download: a new one, a failed one again, or a paused one from where it stopped.
    /// Does nothing if it is already queued or running, or available.
    public func enqueue(issueID: Int64) {
        onQueue { books in self.enqueueOnQueue(issueID: issueID, &books) }
    }

    /// Stops an issue's download and keeps its partial files; the issue is stored as paused, so it is not
    /// resumed by itself at the next start. Does nothing while the issue is being installed.
    public func pause(issueID: Int64) {
        onQueue { books in
            if let index = books.waiting.firstIndex(where: { $0.issue.id == issueID }) {
                let job = books.waiting.remove(at: index)
                self.markPaused(job)
                self.announcePositions(from: index, books)
            } else if let job = books.blocked.removeValue(forKey: issueID) {
                self.markPaused(job)
            } else if let job = books.active[issueID], job.phase != .installing {
                books.active[issueID] = nil
                job.transfer?.cancel()
                job.lock?.release()
                self.markPaused(job)
                self.startWaiting(&books)
            }
            self.signalIfIdle(&books)
        }
    }

    /// Continues a paused (or failed) issue from its partial download; the same as `enqueue`.
    public func resume(issueID: Int64) {
        enqueue(issueID: issueID)
    }

    /// Queues every issue that was queued or downloading when the last process stopped (not paused ones),
    /// after reconciling the library with the disk (`LibraryStore.reconcile(paths:)`). Each continues from its partial.
    public func resumeInterrupted() {
        onQueue { books in
            _ = try? self.store.reconcile(paths: self.paths)
            for issue in (try? self.store.interruptedDownloads()) ?? [] {
                self.enqueueOnQueue(issueID: issue.id, &books)
            }
        }
    }

    /// Stops an issue's download and forgets its partial files; the issue goes back to not downloaded.
    public func cancel(issueID: Int64) {
        onQueue { books in
            if let index = books.waiting.firstIndex(where: { $0.issue.id == issueID }) {
                books.waiting.remove(at: index)
                self.announcePositions(from: index, books)
            }
            books.blocked[issueID] = nil
            var lock: IssueLock?
            if let job = books.active.removeValue(forKey: issueID) {
                job.transfer?.cancel()
                lock = job.lock
            }
            defer { lock?.release() }
            guard let issue = try? self.store.issue(id: issueID), issue.state != .available else { return self.signalIfIdle(&books) }
            // The partial files belong to whoever holds the issue's lock: another process keeps its own.
            if lock == nil { lock = try? IssueLock.tryAcquire(self.paths.downloadLockFile(issueID: issueID)) }
            if lock != nil { self.removePartials(of: issue) }
            try? self.store.setState(.notDownloaded, issueID: issueID)
            self.onEvent(.cancelled(issueID: issueID))
            self.startWaiting(&books)
            self.signalIfIdle(&books)
        }
    }

    /// Moves a waiting issue `offset` places in the waiting line (negative: towards the front).
    public func move(issueID: Int64, by offset: Int) {
        onQueue { books in
            guard let index = books.waiting.firstIndex(where: { $0.issue.id == issueID }) else { return }
            let target = min(max(0, index + offset), books.waiting.count - 1)
            guard target != index else { return }
            let job = books.waiting.remove(at: index)
            books.waiting.insert(job, at: target)
            for position in min(index, target)...max(index, target) {
                self.onEvent(.queued(issueID: books.waiting[position].issue.id, position: position + 1))
            }
        }
    }

    /// Changes how many transfers run at once; takes effect immediately (running ones are not stopped).
    public func setMaxConcurrent(_ count: Int) {
        onQueue { books in
            books.policy.maxConcurrent = max(1, count)
            self.startWaiting(&books)
        }
    }

    /// Limits all transfers together to about this many bytes per second (nil: no limit); takes effect immediately:
    /// at the client's sockets, and running requests for the whole rest of a file continue in slices.
    public func setRateLimit(bytesPerSecond: Int?) {
        onQueue { books in
            books.policy.bytesPerSecondLimit = bytesPerSecond
            self.limiter.setRate(bytesPerSecond)
            self.client.setRateLimit(bytesPerSecond: bytesPerSecond)
            if bytesPerSecond != nil { books.active.values.forEach { $0.transfer?.rateLimitWasSet() } }
        }
    }

    /// Issues queued, transferring, waiting to retry or installing right now.
    public var pendingIssueIDs: Set<Int64> {
        queue.sync {
            books.withLock { books in Set(books.active.keys).union(books.waiting.map(\.issue.id)).union(books.blocked.keys) }
        }
    }

    /// Blocks until nothing is queued, transferring or installing (for the command line and tests).
    public func waitUntilIdle(timeout: TimeInterval = .infinity) -> Bool {
        let semaphore = DispatchSemaphore(value: 0)
        let isIdle = queue.sync {
            books.withLock { books -> Bool in
                if books.isIdle { return true }
                books.idleWaiters.append(semaphore)
                return false
            }
        }
        if isIdle { return true }
        return semaphore.wait(timeout: timeout.isFinite ? .now() + timeout : .distantFuture) == .success
    }

    // MARK: On the queue

    /// Runs `body` on the queue with the bookkeeping, after the work queued before it.
    private func onQueue(_ body: @escaping @Sendable (inout Books) -> Void) {
        queue.async { self.books.withLock { body(&$0) } }
    }

    /// Runs `body` on the queue with the bookkeeping, `delay` seconds from now.
    private func onQueue(after delay: TimeInterval, _ body: @escaping @Sendable (inout Books) -> Void) {
        queue.asyncAfter(deadline: .now() + delay) { self.books.withLock { body(&$0) } }
    }

    private func enqueueOnQueue(issueID: Int64, _ books: inout Books) {
        guard books.active[issueID] == nil, books.blocked[issueID] == nil, !books.waiting.contains(where: { $0.issue.id == issueID }) else { return }
        do {
            guard let issue = try store.issue(id: issueID),
                  let publication = try store.publication(id: issue.publicationID) else { return }
            if issue.state == .available { return }
            guard issue.isDownloadable else {
                onEvent(.failed(issueID: issueID, reason: "the feed lists this issue without anything to download"))
                return
            }
            var job = Job(issue: issue, publication: publication)
            job.fraction = fractionOnDisk(of: issue)
            try store.setState(.downloading, issueID: issueID, progress: job.fraction)
            books.waiting.append(job)
            onEvent(.queued(issueID: issueID, position: books.waiting.count))
            startWaiting(&books)
        } catch {
            onEvent(.failed(issueID: issueID, reason: "the library could not be updated: \(error)"))
        }
    }

    private func startWaiting(_ books: inout Books) {
        var started = false
        while books.active.count < books.policy.maxConcurrent, !books.waiting.isEmpty {
            var job = books.waiting.removeFirst()
            started = true
            do {
                guard let lock = try IssueLock.tryAcquire(paths.downloadLockFile(issueID: job.issue.id)) else {
                    block(job, &books)
                    continue
                }
                job.lock = lock
                // Another process may have finished it meanwhile.
                if let current = try store.issue(id: job.issue.id) {
                    if current.state == .available {
                        lock.release()
                        onEvent(.installed(issueID: job.issue.id))
                        continue
                    }
                    job.issue = current
                }
            } catch {
                fail(job, reason: "\(error)", keepPartials: true, startNext: false, &books)
                continue
            }
            let onDisk = fractionOnDisk(of: job.issue)
            job.fraction = onDisk
            job.phase = .transferring
            books.active[job.issue.id] = job
            onEvent(.started(issueID: job.issue.id, resumedAt: onDisk > 0 ? onDisk : nil))
            startAsset(of: job.issue.id, &books)
        }
        if started { announcePositions(from: 0, books) }
        signalIfIdle(&books)
    }

    /// Sets a job aside while another process holds its issue's lock, and tries again later.
    private func block(_ job: Job, _ books: inout Books) {
        books.blocked[job.issue.id] = job
        onEvent(.waiting(issueID: job.issue.id, reason: Self.lockedElsewhereReason))
        scheduleLockRetry(issueID: job.issue.id, runID: job.runID, books)
    }

    private func scheduleLockRetry(issueID: Int64, runID: UUID, _ books: Books) {
        onQueue(after: max(0.01, books.policy.lockRetryInterval)) { books in
            guard let job = books.blocked[issueID], job.runID == runID else { return }
            if IssueLock.isHeld(self.paths.downloadLockFile(issueID: issueID)) {
                return self.scheduleLockRetry(issueID: issueID, runID: runID, books)
            }
            // Free now: first in line, where it takes the lock for real (or is set aside again).
            books.blocked[issueID] = nil
            books.waiting.insert(job, at: 0)
            self.onEvent(.queued(issueID: issueID, position: 1))
            self.announcePositions(from: 1, books)
            self.startWaiting(&books)
        }
    }

    /// Tells the waiting issues from `index` on their (new) places in line.
    private func announcePositions(from index: Int, _ books: Books) {
        for position in max(0, index)..<books.waiting.count {
            onEvent(.queued(issueID: books.waiting[position].issue.id, position: position + 1))
        }
    }

    private func startAsset(of issueID: Int64, _ books: inout Books) {
        guard var job = books.active[issueID] else { return }
        let urls = job.issue.contentURLs
        guard job.assetIndex < urls.count else { return install(job, &books) }
        let index = job.assetIndex
        let runID = job.runID
        let transfer = AssetTransfer(
            url: urls[index], from: store.documentOrigin(publicationID: job.issue.publicationID), destination: paths.partialFile(issueID: issueID, asset: index), environment: environment,
            isCheckedBeforeInstall: job.issue.expectedSHA256 != nil && urls.count == 1,
            sizeBound: sizeBound(of: job.issue, before: job.completedBytes, books.policy),
            onProgress: { [weak self] received, expected in
                guard let self else { return }
                self.onQueue { books in
                    self.assetProgressed(issueID: issueID, runID: runID, asset: index, received: received, expected: expected, &books)
                }
            },
            onCompletion: { [weak self] result in
                guard let self else { return }
                self.onQueue { books in self.assetFinished(issueID: issueID, runID: runID, asset: index, result: result, &books) }
            })
        job.transfer = transfer
        job.phase = .transferring
        books.active[issueID] = job
        transfer.start()
    }

    /// The most bytes an asset may download after `completed` bytes of the issue's earlier assets: the
    /// catalog's size plus a margin, or with no size `max-download-size`.
    private func sizeBound(of issue: Issue, before completed: Int64, _ policy: DownloadPolicy) -> AssetTransfer.SizeBound {
        if let size = issue.expectedSize, size > 0 {
            let allowed = size + DownloadPolicy.sizeMargin(for: size)
            return AssetTransfer.SizeBound(bytes: max(0, allowed - completed),
                                           message: "the server sent more than the catalog's size of the issue (\(HTTPError.size(size))): stopped at \(HTTPError.size(allowed))")
        }
        let limit = max(1, policy.maxDownloadSize)
        return AssetTransfer.SizeBound(bytes: max(0, limit - completed),
                                       message: "the issue is larger than \(HTTPError.size(limit)) (max-download-size); raise max-download-size in the config file to download it")
    }

    private func assetProgressed(issueID: Int64, runID: UUID, asset: Int, received: Int64, expected: Int64?, _ books: inout Books) {
        guard var job = books.active[issueID], job.runID == runID, job.assetIndex == asset, job.phase == .transferring else { return }
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
        let bytes = job.completedBytes + received
        let now = DispatchTime.now().uptimeNanoseconds
        job.rate.record(bytes: bytes, at: now)
        job.fraction = clamped
        if job.progressThrottle.shouldReport(clamped) {
            onEvent(.progressed(issueID: issueID, fraction: clamped, receivedBytes: bytes, totalBytes: total,
                                bytesPerSecond: job.rate.bytesPerSecond(at: now)))
        }
        if job.storeThrottle.shouldReport(clamped) {
            try? store.setProgress(clamped, issueID: issueID)
        }
        books.active[issueID] = job
    }

    private func assetFinished(issueID: Int64, runID: UUID, asset: Int, result: Result<Void, TransferFailure>, _ books: inout Books) {
        guard var job = books.active[issueID], job.runID == runID, job.assetIndex == asset, job.phase == .transferring else { return }
        job.transfer = nil
        switch result {
        case .success:
            job.completedBytes += PartialDownload.size(of: paths.partialFile(issueID: issueID, asset: asset))
            job.assetIndex += 1
            books.active[issueID] = job
            startAsset(of: issueID, &books)
        case .failure(let failure):
            switch failure.kind {
            case .cancelled:
                // Pause and cancel take the job off first, so this is not expected; end the run rather than hang.
                fail(job, reason: "the transfer stopped", keepPartials: true, &books)
            case .permanent:
                fail(job, reason: failure.reason, keepPartials: failure.keepsPartial, &books)
            case .transient(let retryAfter):
                job.failures += 1
                guard job.failures < books.policy.maxAttempts else {
                    return fail(job, reason: failure.reason, keepPartials: true, &books)
                }
                let delay = books.policy.backoff(afterFailures: job.failures, retryAfter: retryAfter)
                job.phase = .backingOff
                job.rate = TransferRate()
                books.active[issueID] = job
                onEvent(.retrying(issueID: issueID, attempt: job.failures + 1, delay: delay, reason: failure.reason))
                onQueue(after: delay) { books in
                    guard var job = books.active[issueID], job.runID == runID, job.phase == .backingOff else { return }
                    job.phase = .transferring
                    books.active[issueID] = job
                    self.startAsset(of: issueID, &books)
                }
            }
        }
    }

    private func install(_ ready: Job, _ books: inout Books) {
        var installing = ready
        installing.phase = .installing
        books.active[ready.issue.id] = installing
        let job = installing
        onEvent(.installing(issueID: job.issue.id))
        let issue = job.issue
        let runID = job.runID
        let assets = issue.contentURLs.indices.map { paths.partialFile(issueID: issue.id, asset: $0) }
        let destination = paths.folder(for: issue, of: job.publication)
        installQueue.async {
            let result = Result {
                try IssueInstaller.install(assets: assets, sourceURLs: issue.contentURLs, for: issue, into: destination,
                                           diskSync: self.environment.diskSync)
            }
            if case .success = result { IssueSearchIndex(store: self.store, paths: self.paths).index(issue, folder: destination) }
            self.onQueue { books in
                guard books.active[issue.id]?.runID == runID else {
                    // Cancelled meanwhile: take back what was installed, unless the issue was queued again.
                    if case .success = result, books.active[issue.id] == nil, !books.waiting.contains(where: { $0.issue.id == issue.id }),
                       (try? self.store.issue(id: issue.id))?.state != .available {
                        try? FileManager.default.removeItem(at: destination)
                    }
                    return
                }
                switch result {
                case .success:
                    books.active[issue.id] = nil
                    do {
                        // Installed first, then marked available, then the partials go: a crash in between
                        // leaves a downloading issue that finishes from its partials, never an empty "available".
                        if case .success(let identity?) = result { try self.store.setDownloadedFileIdentity(identity, issueID: issue.id) }
                        try self.store.setState(.available, issueID: issue.id)
                        self.removePartials(of: issue)
                        job.lock?.release()
                        self.onEvent(.installed(issueID: issue.id))
                    } catch {
                        self.onEvent(.failed(issueID: issue.id, reason: "the library could not be updated: \(error)"))
                    }
                    self.startWaiting(&books)
                    self.signalIfIdle(&books)
                case .failure(let error):
                    self.fail(job, reason: (error as? DownloadError)?.description ?? "\(error)", keepPartials: false, &books)
                }
            }
        }
    }

    /// Ends a run with a failure. Partials are kept only when a later retry could continue from them.
    private func fail(_ job: Job, reason: String, keepPartials: Bool, startNext: Bool = true, _ books: inout Books) {
        books.active[job.issue.id] = nil
        if !keepPartials && job.lock != nil { removePartials(of: job.issue) }
        job.lock?.release()
        try? store.setState(.failed(reason: reason), issueID: job.issue.id)
        onEvent(.failed(issueID: job.issue.id, reason: reason))
        guard startNext else { return }
        startWaiting(&books)
        signalIfIdle(&books)
    }

    private func markPaused(_ job: Job) {
        try? store.setState(.paused, issueID: job.issue.id, progress: job.fraction)
        onEvent(.paused(issueID: job.issue.id))
    }

    private func removePartials(of issue: Issue) {
        for index in issue.contentURLs.indices {
            PartialDownload.remove(paths.partialFile(issueID: issue.id, asset: index))
        }
    }

    /// The fraction of an issue already in its partial files (0 when there are none).
    private func fractionOnDisk(of issue: Issue) -> Double {
        let partials = issue.contentURLs.indices.map { paths.partialFile(issueID: issue.id, asset: $0) }
        let sizes = partials.map(PartialDownload.size(of:))
        let onDisk = sizes.reduce(0, +)
        guard onDisk > 0 else { return 0 }
        let fraction: Double
        if let size = issue.expectedSize, size > 0 {
            fraction = Double(onDisk) / Double(size)
        } else {
            let perAsset = zip(partials, sizes).map { partial, size -> Double in
                guard let length = PartialDownload.metadata(of: partial)?.length, length > 0 else { return 0 }
                return Double(size) / Double(length)
            }
            fraction = perAsset.reduce(0, +) / Double(max(1, perAsset.count))
        }
        return min(max(fraction, 0), 0.999)
    }

    private func signalIfIdle(_ books: inout Books) {
        guard books.isIdle else { return }
        books.idleWaiters.forEach { $0.signal() }
        books.idleWaiters.removeAll()
    }
}

/// Bytes per second over the last few seconds of a transfer.
struct TransferRate {
    private var samples: [(time: UInt64, bytes: Int64)] = []
    private static let window: UInt64 = 3_000_000_000

    mutating func record(bytes: Int64, at time: UInt64) {
        if let last = samples.last, bytes < last.bytes { samples.removeAll() } // started over
        samples.append((time, bytes))
        while let first = samples.first, time - first.time > Self.window, samples.count > 2 { samples.removeFirst() }
    }

    func bytesPerSecond(at time: UInt64) -> Double {
        guard let first = samples.first, let last = samples.last, last.time > first.time else { return 0 }
        let seconds = Double(last.time - first.time) / 1e9
        return seconds < 0.05 ? 0 : Double(last.bytes - first.bytes) / seconds
    }
}

import Foundation
import Synchronization

/// Fetches one asset (one URL) of an issue into its partial file, streaming, resuming what an earlier
/// attempt left there when that is provably the same representation, and reports bytes as they land.
///
/// Before the first byte is written, the response's validator (strong ETag, else Last-Modified) and
/// length go into the partial's sidecar (`PartialDownload`), fsynced. A later attempt asks for
/// `Range: bytes=N-` with `If-Range`, and appends only to a 206 whose Content-Range starts at N (and
/// whose total and validator agree); a 200, a changed validator or a range that does not fit start the
/// file over from zero (at most twice); a 416 for a partial that is already complete finishes it, and a
/// 416 naming the total completes a partial whose length was unknown. file URLs resume by offset when
/// the source's size and modification time are unchanged. Those decisions are `ResumePlan`'s (pure
/// values); this class reads the disk, asks, and carries them out. Its parts live beside it: the blocks
/// held in memory (`TransferBuffers`), pacing under a rate limit (`TransferPacing`), the disk's free-space
/// checks (`DiskRoom`), and what a failure means (`TransferFailure.classifying`).
///
/// http and https go through ``HTTPClient`` (libcurl on the client's network thread), asking for
/// `Accept-Encoding: identity` so byte offsets are file offsets. The transfer is its own body sink: it
/// copies each network chunk into a block held in memory and hands full blocks (1 MiB) to a serial queue
/// of its own that writes them; the network thread never waits for the disk. With `queuedBlocks` full
/// blocks waiting for the disk (one by default) and the next one full too, the sink answers `.full` and
/// the client pauses the transfer until a write is done, so a disk slower than the network holds back the
/// server instead of filling memory: at most `queuedBlocks + 1` blocks per transfer (2 MiB). The sidecar, the partial file's opening, every write and the end
/// of each request happen on that queue, in order; file URLs are copied in chunks on a background queue.
/// Every file operation happens holding `files` after checking for cancellation, so once `cancel()`
/// returns this transfer never touches the partial again. Callbacks arrive on a background queue.
///
/// While data arrives, the transfer keeps to its bounds: the partial never holds more than `sizeBound`
/// (the catalog's size plus a margin, or `max-download-size`; the client refuses an announced length
/// over it before the body, and the sink refuses the byte that would pass it); before each block is
/// written the disk's free space must stay above `disk-reserve` (else it stops, keeping the partial);
/// and an attempt that receives nothing for `stall-timeout` seconds fails as transient (libcurl's
/// low-speed limit), to be retried from the partial.
///
/// Under a rate limit, http asks for the file in slices of about a second's worth (`Range: bytes=N-M`,
/// one after another), and the client holds each socket to its share of the limit. libcurl's limit only
/// starts once a second's worth has arrived in a request, though, so a slice would come in one burst: the
/// sink also draws every chunk from the queue's token bucket (shared with the other transfers) and, while
/// the bucket is in debt, answers `.full` and resumes the transfer when it has caught up. That pauses the
/// transfer, not a thread: nothing sleeps on the network thread. A server that answers a slice with the
/// whole file (200) is paced the same way.
final class AssetTransfer: HTTPBodySink, Sendable {
    typealias Progress = @Sendable (_ received: Int64, _ expected: Int64?) -> Void
    typealias Completion = @Sendable (Result<Void, TransferFailure>) -> Void

    /// What transfers of one queue share.
    struct Environment: Sendable {
        /// The queue's rate limit: it decides slicing (and paces file copies); the client applies it at the socket.
        let limiter: RateLimiter
        /// Free bytes on the file system of a folder (statvfs; tests inject small figures).
        let freeSpace: @Sendable (URL) -> Int64?
        /// Forces a finished partial to disk when nothing will check it (see `syncUnlessChecked`).
        var diskSync: DiskSync = .fsync
        /// The client every http(s) request goes through, with its logins.
        var client: HTTPClient = .shared
        /// Free bytes writing leaves on the disk (`disk-reserve`).
        var diskReserve: Int64 = DownloadPolicy.defaultDiskReserve
        /// Seconds without a byte before an attempt fails (`stall-timeout`).
        var stallTimeout: Int = DownloadPolicy.defaultStallTimeout
        var connectTimeout: TimeInterval = 15
        /// Bytes gathered in memory before they are written (tests make it small).
        var blockSize: Int = AssetTransfer.writeBufferSize
        /// Full blocks that may wait for (or be in) a write while the next one fills; one more and the sink
        /// pauses the transfer. A transfer holds at most this many blocks plus the one filling.
        var queuedBlocks: Int = AssetTransfer.queuedBlocks
        /// Called on the writing queue before each block of a response body is written (tests: a slow disk).
        var beforeWrite: @Sendable (Int) -> Void = { _ in }
    }

    /// The most bytes the partial file may hold, and what to say when a server sends more.
    struct SizeBound: Sendable {
        var bytes: Int64
        var message: String

        static let unbounded = SizeBound(bytes: .max, message: "the download is too large")
    }

    /// One request and what its response decided. Its fields are taken while `state` is held, or alone.
    private final class Attempt: Sendable {
        /// What the request asks for, from the partial file it continues.
        let plan: ResumePlan
        let fields = Mutex(Fields())

        struct Fields {
            var transfer: HTTPTransfer?
            /// Cancelled before `transfer` was known: cancel it as soon as it is.
            var isCancelRequested = false
            var head: HTTPResponseHead?
            /// The response's body goes to the partial file.
            var isAccepted = false
            /// The last byte the response ends on when it is a slice (a 206 to a closed range), else nil.
            var sliceLast: Int64?
            /// The client reported the end (`.finished` or `.failed`).
            var hasEnded = false
        }

        init(plan: ResumePlan) {
            self.plan = plan
        }

        /// The request's transfer, once the client has handed it over; until then, asks for it to be cancelled
        /// as soon as it is.
        func transferToCancel() -> HTTPTransfer? {
            fields.withLock { fields in
                if fields.transfer == nil { fields.isCancelRequested = true }
                return fields.transfer
            }
        }
    }

    private let url: URL
    private let origin: DocumentOrigin
    private let destination: URL
    /// The catalog gives this asset's SHA-256, so whatever reaches the disk is hashed before it is installed.
    private let isCheckedBeforeInstall: Bool
    private let environment: Environment
    private let sizeBound: SizeBound
    private let onProgress: Progress
    private let onCompletion: Completion
    /// The partial file's writer, held around every file operation, each after checking for cancellation. Never
    /// taken on the client's network thread (the sink and the event handler), so a slow disk never holds the
    /// network up.
    private let files = Mutex<PartialWriter?>(nil)
    /// Held briefly around the fields shared with the network thread, never across a file operation or a
    /// call out of this class. Taken after `files` when both are held, before an attempt's fields.
    private let state: Mutex<Shared>
    /// Prepares the partial file for each response, writes the blocks and ends each request, in order.
    private let work = DispatchQueue(label: "newsstand.download.asset", qos: .utility)

    /// What the transfer's threads share (held in `state`).
    private struct Shared {
        var isCancelled = false
        var isFinished = false
        var failure: TransferFailure?
        var restartRequested = false
        var restarts = 0
        /// The current request is being dropped to continue in slices (a rate limit was set meanwhile).
        var resliceRequested = false
        var metadata: PartialMetadata?
        var current: Attempt?
        /// Bytes of the asset taken so far: in the partial file or held in memory.
        var received: Int64 = 0
        /// The blocks body bytes are held in on their way to the disk.
        var buffers: TransferBuffers
        /// The transfer the sink paused (`.full`) until the block being written is done, or the rate limit allows.
        var pausedTransfer: HTTPTransfer?
        var pauses = 0
        var pacing = TransferPacing()
        /// Decides, at the source, which byte counts are worth passing on: the queue would throttle the same
        /// way, so reporting every network chunk only cost a hop to its queue per chunk.
        var progressThrottle = ProgressThrottle()

        /// Whether `received` bytes of `expected` are worth reporting: the same rule as the queue's own
        /// `ProgressThrottle` (half a percent or 0.1 s), applied to this asset. The bytes reported are in the
        /// partial file by the time they are reported (another process, or a later run after a crash, sees at
        /// least that much).
        mutating func shouldReport(_ received: Int64, of expected: Int64?) -> Bool {
            let fraction = expected.map { $0 > 0 ? Double(received) / Double($0) : 0 } ?? 0
            return progressThrottle.shouldReport(fraction)
        }
    }

    /// At most this many bytes are gathered in memory before they are written to the partial file; what is
    /// held is also written whenever progress is due, and at the end (see `syncUnlessChecked` for when it
    /// is forced to disk).
    static let writeBufferSize = 1 << 20
    /// Full blocks a transfer lets wait for the disk before it pauses. One (two blocks in memory with the one
    /// filling) pauses a 200 MB download from loopback some 50–150 times, three some 10–20 times, and the
    /// benchmark could not tell them apart on a shared 2-core machine: the smaller bound stays.
    static let queuedBlocks = 1

    /// - Parameter origin: where the catalog that names `url` came from; a URL it may not point to (a local file
    ///   named by a feed from the network) fails at `start` without a byte read or written.
    init(url: URL, from origin: DocumentOrigin, destination: URL, environment: Environment, isCheckedBeforeInstall: Bool = false,
         sizeBound: SizeBound = .unbounded, onProgress: @escaping Progress, onCompletion: @escaping Completion) {
        self.url = url
        self.origin = origin
        self.destination = destination
        self.isCheckedBeforeInstall = isCheckedBeforeInstall
        self.environment = environment
        self.sizeBound = sizeBound
        self.onProgress = onProgress
        self.onCompletion = onCompletion
        state = Mutex(Shared(buffers: TransferBuffers(blockSize: environment.blockSize, queuedBlocks: environment.queuedBlocks)))
    }

    func start() {
        if let refusal = origin.refusal(of: url) { return finish(.failure(.permanent(refusal))) }
        switch url.scheme?.lowercased() {
        case "file":
            DispatchQueue.global(qos: .utility).async { self.copyFile() }
        case "http", "https":
            work.async { self.startRequest() }
        default:
            finish(.failure(.permanent("cannot download from \(url.scheme ?? "a URL without a scheme"): only http, https and file are supported")))
        }
    }

    /// Stops the transfer; the partial file keeps what arrived (bytes held in memory are written out).
    /// Synchronous with respect to writes: waits for one in progress.
    func cancel() {
        let transfer: HTTPTransfer? = state.withLock { state in
            state.isCancelled = true
            return state.current?.transferToCancel()
        }
        // Once this returns the sink is not called again.
        transfer?.cancel()
        files.withLock { writer in
            let (held, failed) = state.withLock { ($0.buffers.takeHeld(), $0.failure != nil) }
            if let open = writer {
                if !failed {
                    do {
                        for block in held { try write(block, to: open) }
                    } catch {}
                }
                try? open.flush()
                open.close()
                writer = nil
            }
            state.withLock { $0.buffers.recycle(held) }
        }
    }

    /// A rate limit was just set: a request that asks for the whole rest of the file is dropped and the
    /// transfer continues from its partial in slices, so the network slows down now, not at the next request.
    /// Only a request whose reply has not begun, or whose server takes ranges, is dropped: from a server
    /// that ignores them the rest would start over from zero (and the client's socket limit slows it anyway).
    func rateLimitWasSet() {
        let transfer: HTTPTransfer? = state.withLock { state in
            guard !state.isCancelled, !state.isFinished, let current = state.current, !current.plan.asksForSlice else { return nil }
            let (hasEnded, head) = current.fields.withLock { ($0.hasEnded, $0.head) }
            guard !hasEnded else { return nil }
            if let head, head.status != 206,
               head.header("Accept-Ranges")?.lowercased().contains("bytes") != true { return nil }
            state.resliceRequested = true
            return current.transferToCancel()
        }
        transfer?.cancel()
    }

    /// The most body bytes held in memory at once, and how many times the sink paused the transfer (tests).
    var peakHeldBytes: Int { state.withLock { $0.buffers.peakHeld } }
    var timesPaused: Int { state.withLock { $0.pauses } }

    private var host: String { url.host ?? "the server" }
    private var disk: DiskRoom {
        DiskRoom(freeSpace: environment.freeSpace, reserve: environment.diskReserve, folder: destination.deletingLastPathComponent())
    }

    // MARK: file URLs

    private func copyFile() {
        do {
            let attributes: [FileAttributeKey: Any]
            do {
                attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            } catch {
                throw TransferFailure.permanent("cannot read \(url.path)")
            }
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            guard let input = FileHandle(forReadingAtPath: url.path) else { throw TransferFailure.permanent("cannot read \(url.path)") }
            defer { try? input.close() }
            let current = PartialMetadata(url: url.absoluteString, validator: "\(size)-\(modified)", length: size)
            let offset: Int64 = try files.withLock { writer in
                guard !isCancelledNow else { throw TransferFailure.cancelled }
                let offset = ResumePlan.fileOffset(onDisk: PartialDownload.size(of: destination),
                                                   stored: PartialDownload.metadata(of: destination), source: current)
                let resume = offset > 0
                try disk.checkBeforeBody(needed: size - offset)
                if !resume {
                    PartialDownload.remove(destination)
                    try PartialDownload.write(current, of: destination)
                }
                writer = try PartialWriter(url: destination, truncate: !resume, bufferSize: environment.blockSize)
                state.withLock { state in
                    state.metadata = current
                    state.received = offset
                    state.progressThrottle = ProgressThrottle()
                }
                return offset
            }
            try input.seek(toOffset: UInt64(offset))
            var copied = offset
            while let chunk = try input.read(upToCount: 64 << 10), !chunk.isEmpty {
                TransferPacing.paceFileCopy(chunk.count, limiter: environment.limiter) { isCancelledNow }
                let total = copied
                let report: Int64? = try files.withLock { writer in
                    guard !isCancelledNow, let writer else { throw TransferFailure.cancelled }
                    try writer.write(chunk)
                    let copied = total + Int64(chunk.count)
                    guard state.withLock({ $0.shouldReport(copied, of: size) }) else { return nil }
                    try writer.flush()
                    return copied
                }
                copied += Int64(chunk.count)
                if let report { onProgress(report, size) }
            }
            try files.withLock { writer in
                guard !isCancelledNow, let open = writer else { throw TransferFailure.cancelled }
                try open.flush()
                open.close()
                writer = nil
            }
            guard PartialDownload.size(of: destination) == size else {
                throw TransferFailure.transient("\(url.lastPathComponent) changed while it was being copied")
            }
            finish(.success(()))
        } catch {
            finish(.failure(TransferFailure.from(error)))
        }
    }

    // MARK: http and https: requests

    /// Starts a request: a ranged, conditional one when the partial file can be continued. On `work`.
    private func startRequest() {
        let begun: (Attempt, HTTPRequest)? = files.withLock { _ in
            guard !isCancelledNow else { return nil }
            let onDisk = PartialDownload.size(of: destination)
            let stored = PartialDownload.metadata(of: destination)
            // Reading the limit and publishing the attempt happen under one hold of `state`, so a limit set
            // meanwhile either is read here or finds the attempt (`rateLimitWasSet`).
            return state.withLock { state -> (Attempt, HTTPRequest)? in
                guard !state.isCancelled else { return nil }
                let plan = ResumePlan(url: url.absoluteString, onDisk: onDisk, stored: stored,
                                      bytesPerSecond: environment.limiter.bytesPerSecond)
                state.metadata = plan.stored
                state.received = plan.offset
                state.resliceRequested = false
                let attempt = Attempt(plan: plan)
                state.current = attempt
                let request = HTTPRequest(url: url, headers: plan.headers, limits: requestLimits, isRateLimited: true, decodesContent: false)
                return (attempt, request)
            }
        }
        guard let (attempt, request) = begun else { return finish(.failure(.cancelled)) }
        let transfer = environment.client.start(request, sink: self) { [self] event in handle(event, of: attempt) }
        let cancelNow = state.withLock { _ in
            attempt.fields.withLock { fields in
                fields.transfer = transfer
                return fields.isCancelRequested
            }
        }
        if cancelNow { transfer.cancel() }
    }

    /// The client's bounds for a request: the size bound whole (a 200 may start over from zero; the sink
    /// holds an appended part to the rest), the stall timeout, no deadline (a download may take hours).
    private var requestLimits: HTTPLimits {
        let bound = sizeBound.bytes == .max ? nil : max(1, sizeBound.bytes)
        return HTTPLimits(maxBodyBytes: bound, maxReceivedBytes: bound, deadline: nil, connectTimeout: environment.connectTimeout,
                          lowSpeed: HTTPLimits.LowSpeed(bytesPerSecond: 1, seconds: environment.stallTimeout),
                          subject: "the issue", sizeLimitName: "size limit")
    }

    /// On the network thread: decides at once from the head, and leaves file work to `work`.
    private func handle(_ event: HTTPEvent, of attempt: Attempt) {
        switch event {
        case .response(let head):
            responded(head, attempt)
        case .progress:
            break
        case .finished:
            ended(attempt, error: nil)
        case .failed(let error):
            ended(attempt, error: error)
        }
    }

    private func responded(_ head: HTTPResponseHead, _ attempt: Attempt) {
        let answer = state.withLock { state -> ResumePlan.Answer? in
            guard attempt === state.current, !state.isCancelled else { return nil }
            attempt.fields.withLock { $0.head = head }
            return attempt.plan.answer(head)
        }
        switch answer {
        case nil:
            return
        case .accept(let metadata, let append, let remaining, let sliceLast)?:
            let accepted = state.withLock { state -> Bool in
                guard !state.isCancelled, state.failure == nil else { return false }
                attempt.fields.withLock { fields in
                    fields.isAccepted = true
                    fields.sliceLast = sliceLast
                }
                state.metadata = metadata
                state.received = append ? attempt.plan.offset : 0
                state.progressThrottle = ProgressThrottle()
                state.buffers.startFilling()
                return true
            }
            if accepted { work.async { self.prepare(attempt, metadata: metadata, append: append, remaining: remaining) } }
        case .startOver?:
            let allowed = state.withLock { state -> Bool in
                guard state.restarts < 2 else { return false }
                state.restarts += 1
                state.restartRequested = true
                return true
            }
            if allowed { cancel(attempt) } else { stop(attempt, .transient("\(host) sent a part of the issue that does not fit the download")) }
        case .notAnIssue(let problem)?:
            stop(attempt, .permanent(problem))
        case .unusable(let status)?:
            stop(attempt, .permanent("\(host) answered \(status) \(TransferFailure.reasonPhrase(status))"))
        }
    }

    /// Prepares the partial file for the body: sidecar first (fsynced), then the data file, appended or emptied.
    /// On `work`, before any block of this response.
    private func prepare(_ attempt: Attempt, metadata: PartialMetadata, append: Bool, remaining: Int64?) {
        do {
            try files.withLock { writer in
                guard state.withLock({ !$0.isCancelled && $0.failure == nil && attempt === $0.current }) else { return }
                try disk.checkBeforeBody(needed: remaining ?? 0)
                if !append { PartialDownload.remove(destination) }
                if !append || PartialDownload.metadata(of: destination) != metadata {
                    try PartialDownload.write(metadata, of: destination)
                }
                writer = try PartialWriter(url: destination, truncate: !append)
            }
        } catch {
            stop(attempt, TransferFailure.from(error))
        }
    }

    /// Records why the transfer fails (the first reason wins) and stops its request.
    private func stop(_ attempt: Attempt, _ failure: TransferFailure) {
        state.withLock { if $0.failure == nil { $0.failure = failure } }
        cancel(attempt)
    }

    /// Cancels a request, now or as soon as the client has handed it over.
    private func cancel(_ attempt: Attempt) {
        let transfer: HTTPTransfer? = state.withLock { _ in attempt.transferToCancel() }
        transfer?.cancel()
    }

    // MARK: http and https: the body

    /// On the network thread: copies the chunk into the block being filled. A full block (or one due for
    /// a progress report) goes to `work` to be written while the next one fills; when that one is full too,
    /// `.full` pauses the transfer until the write is done.
    func receive(_ bytes: UnsafeRawBufferPointer, from transfer: HTTPTransfer) -> HTTPSinkVerdict {
        var report: (received: Int64, expected: Int64?)?
        var handedOff = false
        var resumeAt: DispatchTime?
        let verdict = state.withLock { state -> HTTPSinkVerdict in
            guard !state.isCancelled, state.failure == nil, let attempt = state.current, attempt.fields.withLock({ $0.isAccepted }),
                  state.buffers.filling != nil else {
                return .failed("the download was stopped")
            }
            let paced = state.pacing.check()
            if paced.pause {
                state.pausedTransfer = transfer
                resumeAt = paced.resumeAt
                return .full
            }
            let count = bytes.count
            if state.received + Int64(count) > sizeBound.bytes {
                state.failure = .permanent(sizeBound.message)
                return .failed(sizeBound.message)
            }
            guard let overflowed = state.buffers.take(bytes) else {
                if state.pausedTransfer == nil { state.pauses += 1 }
                state.pausedTransfer = transfer
                return .full
            }
            handedOff = overflowed
            state.received += Int64(count)
            state.pacing.charge(wait: environment.limiter.reserve(count))
            let expected = state.metadata?.length
            let filled = state.buffers.filling?.count ?? 0
            if handedOff {
                // Once the block is written, everything but what fills the next one is in the file.
                let onDisk = state.received - Int64(filled)
                if state.shouldReport(onDisk, of: expected) { report = (onDisk, expected) }
            } else if filled > 0 {
                // A full block goes as soon as there is room in the queue; a partial one only when the disk is
                // idle and progress is due, so every byte count reported is in the file.
                let goes: Bool
                if state.buffers.filling?.isFull == true && state.buffers.canQueue {
                    goes = true
                    if state.shouldReport(state.received, of: expected) { report = (state.received, expected) }
                } else if state.buffers.queued.isEmpty, state.shouldReport(state.received, of: expected) {
                    goes = true
                    report = (state.received, expected)
                } else {
                    goes = false
                }
                if goes {
                    state.buffers.handOffFilling()
                    handedOff = true
                }
            }
            state.buffers.notePeak()
            return .accepted
        }
        if handedOff {
            let report = report
            work.async { self.writeQueued(report: report) }
        }
        if let resumeAt { work.asyncAfter(deadline: resumeAt) { self.resumeAfterPacing() } }
        return verdict
    }

    /// The token bucket has caught up: lets the transfer the pacing paused go on (if a block is still being
    /// written, the sink pauses it again and the write resumes it).
    private func resumeAfterPacing() {
        let paused: HTTPTransfer? = state.withLock { state in
            state.pacing.resumed()
            defer { state.pausedTransfer = nil }
            return state.pausedTransfer
        }
        paused?.resume()
    }

    /// Writes the oldest block the sink handed off (one call per block handed off), then lets a paused
    /// transfer go on and reports the bytes now in the file. On `work`.
    private func writeQueued(report: (received: Int64, expected: Int64?)?) {
        var failed: TransferFailure?
        var wrote = false
        let paused: HTTPTransfer? = files.withLock { writer in
            let (block, cancelled, failedBefore) = state.withLock { ($0.buffers.nextToWrite, $0.isCancelled, $0.failure != nil) }
            // After a cancel, `cancel()` has written what was held.
            guard let block, !cancelled else { return nil }
            if !failedBefore, let writer {
                do {
                    try write(block, to: writer)
                    wrote = true
                } catch {
                    failed = TransferFailure.from(error)
                }
            }
            let failedNow = failed
            return state.withLock { state -> HTTPTransfer? in
                state.buffers.written()
                if let failedNow, state.failure == nil { state.failure = failedNow }
                let paused = state.pausedTransfer
                state.pausedTransfer = nil
                return state.failure == nil ? paused : nil
            }
        }
        if failed != nil, let attempt = state.withLock({ $0.current }) { cancel(attempt) }
        paused?.resume()
        if wrote, let report { onProgress(report.received, report.expected) }
    }

    /// Writes one block to the partial file, unless that would take the disk's free space below the reserve.
    /// Called holding `files`.
    private func write(_ block: HeldBlock, to writer: PartialWriter) throws {
        guard block.count > 0 else { return }
        try disk.checkBeforeWriting(block.count)
        environment.beforeWrite(block.count)
        try writer.write(block.bytes)
    }

    // MARK: http and https: the end of a request

    private func ended(_ attempt: Attempt, error: HTTPError?) {
        state.withLock { state in
            let transfer = attempt.fields.withLock { fields in
                fields.hasEnded = true
                return fields.transfer
            }
            if state.pausedTransfer === transfer { state.pausedTransfer = nil }
        }
        work.async { self.requestEnded(attempt, error: error) }
    }

    private enum Next {
        case again
        case done(Result<Void, TransferFailure>)
    }

    /// Writes out what the request left in memory and decides what comes next: another request (a restart,
    /// the next slice, slices after a limit was set) or the end. On `work`, after every block of the request.
    private func requestEnded(_ attempt: Attempt, error: HTTPError?) {
        var report: (received: Int64, expected: Int64?)?
        let next: Next = files.withLock { writer in
            let (held, cancelled, failedBefore, restart) = state.withLock {
                ($0.buffers.takeHeld(), $0.isCancelled, $0.failure != nil, $0.restartRequested)
            }
            if let open = writer {
                if !cancelled, !failedBefore, !restart {
                    do {
                        for block in held { try write(block, to: open) }
                        if !held.isEmpty {
                            report = state.withLock { state -> (Int64, Int64?)? in
                                let expected = state.metadata?.length
                                return state.shouldReport(state.received, of: expected) ? (state.received, expected) : nil
                            }
                        }
                    } catch {
                        let failed = TransferFailure.from(error)
                        state.withLock { if $0.failure == nil { $0.failure = failed } }
                    }
                }
                open.close()
                writer = nil
            }
            state.withLock { state in
                state.buffers.recycle(held)
                if state.current === attempt { state.current = nil }
            }
            return decideAfter(attempt, error: error)
        }
        if let report { onProgress(report.received, report.expected) }
        switch next {
        case .again: startRequest()
        case .done(let result): finish(result)
        }
    }

    /// Called holding `files`.
    private func decideAfter(_ attempt: Attempt, error: HTTPError?) -> Next {
        let (cancelled, failure, restart, reslice, metadata) = state.withLock { state -> (Bool, TransferFailure?, Bool, Bool, PartialMetadata?) in
            defer {
                state.restartRequested = false
                state.resliceRequested = false
            }
            return (state.isCancelled, state.failure, state.restartRequested, state.resliceRequested, state.metadata)
        }
        if cancelled { return .done(.failure(.cancelled)) }
        if let failure { return .done(.failure(failure)) }
        if restart {
            PartialDownload.remove(destination)
            return .again
        }
        if reslice { return .again }  // continues from the partial, in slices
        if let error {
            if case .status(let head) = error, head.status == 416 { return rangeNotSatisfiable(head, attempt) }
            return .done(.failure(.classifying(error, host: host, tooLarge: sizeBound.message)))
        }
        switch ResumePlan.afterBody(onDisk: PartialDownload.size(of: destination), sliceLast: attempt.fields.withLock { $0.sliceLast },
                                    length: metadata?.length) {
        case .nextSlice: return .again
        case .complete: return .done(.success(()))
        case .stoppedEarly(let onDisk, let length):
            return .done(.failure(.transient("the download stopped early: \(onDisk) of \(length) bytes arrived")))
        }
    }

    /// A 416: the partial is complete (finish it), or the download starts over (at most twice). Called holding `files`.
    private func rangeNotSatisfiable(_ head: HTTPResponseHead, _ attempt: Attempt) -> Next {
        switch attempt.plan.rangeNotSatisfiable(head) {
        case .complete(let complete, let learnedLength):
            if learnedLength { try? PartialDownload.write(complete, of: destination) }
            state.withLock { $0.metadata = complete }
            return .done(PartialDownload.size(of: destination) == complete.length
                         ? .success(()) : .failure(.transient("the partial download does not match the server's")))
        case .startOver:
            let allowed = state.withLock { state -> Bool in
                guard state.restarts < 2 else { return false }
                state.restarts += 1
                return true
            }
            guard allowed else { return .done(.failure(.transient("\(host) could not continue the download (416 Range Not Satisfiable)"))) }
            PartialDownload.remove(destination)
            return .again
        }
    }

    // MARK: helpers

    private var isCancelledNow: Bool { state.withLock { $0.isCancelled } }

    /// Forces the finished partial to disk unless it will be checked before it is installed: a zip (an
    /// EPUB) is checked entry by entry as it is unpacked, and an asset with the catalog's SHA-256 is
    /// hashed. Anything else (a PDF without a digest) could come back from a power cut with zeros where
    /// its end was, unnoticed; the install syncs what it installs in any case.
    private func syncUnlessChecked() throws {
        guard !isCheckedBeforeInstall, !IssueInstaller.isZipArchive(destination) else { return }
        try environment.diskSync.sync(destination)
    }

    private func finish(_ result: Result<Void, TransferFailure>) {
        var result = result
        if case .success = result, !state.withLock({ $0.isFinished }) {
            do { try syncUnlessChecked() } catch { result = .failure(TransferFailure.from(error)) }
        }
        let first = state.withLock { state -> Bool in
            defer { state.isFinished = true }
            return !state.isFinished
        }
        if first { onCompletion(result) }
    }
}

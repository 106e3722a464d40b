import Foundation

/// Why a transfer stopped, and whether trying again could help.
struct TransferFailure: Error, Equatable {
    enum Kind: Equatable {
        /// Worth another attempt (timeouts, stalls, dropped connections, 5xx, 408, 429), after at least `retryAfter` seconds if given.
        case transient(retryAfter: TimeInterval?)
        /// Trying again will not help (refused, gone, not an issue, too large, disk full).
        case permanent
        /// Stopped on request (pause or cancel).
        case cancelled
    }

    let reason: String
    let kind: Kind
    /// A permanent failure whose partial file is worth keeping: the disk's free space reached the reserve, and
    /// once space is freed the download continues from what it holds.
    var keepsPartial = false

    static func permanent(_ reason: String) -> TransferFailure { TransferFailure(reason: reason, kind: .permanent) }
    static func transient(_ reason: String, retryAfter: TimeInterval? = nil) -> TransferFailure {
        TransferFailure(reason: reason, kind: .transient(retryAfter: retryAfter))
    }
    /// Permanent, keeping the partial file for a later attempt.
    static func stopped(_ reason: String) -> TransferFailure { TransferFailure(reason: reason, kind: .permanent, keepsPartial: true) }
    static let cancelled = TransferFailure(reason: "cancelled", kind: .cancelled)
}

/// Fetches one asset (one URL) of an issue into its partial file, streaming, resuming what an earlier
/// attempt left there when that is provably the same representation, and reports bytes as they land.
///
/// Before the first byte is written, the response's validator (strong ETag, else Last-Modified) and
/// length go into the partial's sidecar (`PartialDownload`), fsynced. A later attempt asks for
/// `Range: bytes=N-` with `If-Range`, and appends only to a 206 whose Content-Range starts at N (and
/// whose total and validator agree); a 200, a changed validator or a range that does not fit start the
/// file over from zero (at most twice); a 416 for a partial that is already complete finishes it, and a
/// 416 naming the total completes a partial whose length was unknown. file URLs resume by offset when
/// the source's size and modification time are unchanged.
///
/// http and https go through ``HTTPClient`` (libcurl on the client's network thread), asking for
/// `Accept-Encoding: identity` so byte offsets are file offsets. The transfer is its own body sink: it
/// copies each network chunk into a block held in memory and hands full blocks (1 MiB) to a serial queue
/// of its own that writes them; the network thread never waits for the disk. With `queuedBlocks` full
/// blocks waiting for the disk (one by default) and the next one full too, the sink answers `.full` and
/// the client pauses the transfer until a write is done, so a disk slower than the network holds back the
/// server instead of filling memory: at most `queuedBlocks + 1` blocks per transfer (2 MiB). The sidecar, the partial file's opening, every write and the end
/// of each request happen on that queue, in order; file URLs are copied in chunks on a background queue.
/// Every file operation happens under `lock` after checking for cancellation, so once `cancel()`
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
final class AssetTransfer: HTTPBodySink, @unchecked Sendable {
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

    /// One request and what its response decided; guarded by `state`.
    private final class Attempt: @unchecked Sendable {
        /// Bytes already in the partial file the request continues from (0: from the start), and its sidecar.
        let offset: Int64
        let stored: PartialMetadata?
        /// The last byte asked for when the request asks for a slice, else nil.
        let requestedSliceLast: Int64?
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

        init(offset: Int64, stored: PartialMetadata?, requestedSliceLast: Int64?) {
            self.offset = offset
            self.stored = stored
            self.requestedSliceLast = requestedSliceLast
        }

        var asksForSlice: Bool { requestedSliceLast != nil }
    }

    /// Body bytes held in memory on their way to the partial file.
    private final class HeldBlock: @unchecked Sendable {
        let capacity: Int
        let storage: UnsafeMutableRawPointer
        var count = 0

        init(capacity: Int) {
            self.capacity = max(1, capacity)
            storage = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
        }

        deinit { storage.deallocate() }

        var room: Int { capacity - count }
        var isFull: Bool { count == capacity }
        var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

        func append(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            (storage + count).copyMemory(from: base, byteCount: bytes.count)
            count += bytes.count
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
    /// Held around every file operation, each after checking for cancellation. Never taken on the client's
    /// network thread (the sink and the event handler), so a slow disk never holds the network up.
    private let lock = NSLock()
    /// Held briefly around the fields shared with the network thread, never across a file operation or a
    /// call out of this class. Taken after `lock` when both are held.
    private let state = NSLock()
    /// Prepares the partial file for each response, writes the blocks and ends each request, in order.
    private let work = DispatchQueue(label: "newsstand.download.asset", qos: .utility)

    // Under `lock`.
    private var writer: PartialWriter?

    // Under `state`.
    private var isCancelled = false
    private var isFinished = false
    private var failure: TransferFailure?
    private var restartRequested = false
    private var restarts = 0
    /// The current request is being dropped to continue in slices (a rate limit was set meanwhile).
    private var resliceRequested = false
    private var metadata: PartialMetadata?
    private var current: Attempt?
    /// Bytes of the asset taken so far: in the partial file or held in memory.
    private var received: Int64 = 0
    /// The block the sink fills, the full ones handed to `work` (oldest first, the first being written), and
    /// written ones kept for reuse.
    private var filling: HeldBlock?
    private var queued: [HeldBlock] = []
    private var spares: [HeldBlock] = []
    /// The transfer the sink paused (`.full`) until the block being written is done.
    private var pausedTransfer: HTTPTransfer?
    private var peakHeld = 0
    private var pauses = 0
    /// Under a rate limit: no more bytes are taken before this moment (the queue's token bucket is in debt),
    /// and a resume of the paused transfer is scheduled for it.
    private var pacedUntil: DispatchTime?
    private var isPacingResumeScheduled = false
    /// Decides, at the source, which byte counts are worth passing on: the queue would throttle the same
    /// way, so reporting every network chunk only cost a hop to its queue per chunk.
    private var progressThrottle = ProgressThrottle()

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
        let transfer: HTTPTransfer? = state.withLock {
            isCancelled = true
            guard let current else { return nil }
            if current.transfer == nil { current.isCancelRequested = true }
            return current.transfer
        }
        // Once this returns the sink is not called again.
        transfer?.cancel()
        lock.withLock {
            let (held, failed) = state.withLock { (takeHeldBlocks(), failure != nil) }
            if let writer {
                if !failed {
                    do {
                        for block in held { try write(block, to: writer) }
                    } catch {}
                }
                try? writer.flush()
                writer.close()
                self.writer = nil
            }
            state.withLock { recycle(held) }
        }
    }

    /// A rate limit was just set: a request that asks for the whole rest of the file is dropped and the
    /// transfer continues from its partial in slices, so the network slows down now, not at the next request.
    /// Only a request whose reply has not begun, or whose server takes ranges, is dropped: from a server
    /// that ignores them the rest would start over from zero (and the client's socket limit slows it anyway).
    func rateLimitWasSet() {
        let transfer: HTTPTransfer? = state.withLock {
            guard !isCancelled, !isFinished, let current, !current.hasEnded, !current.asksForSlice else { return nil }
            if let head = current.head, head.status != 206,
               head.header("Accept-Ranges")?.lowercased().contains("bytes") != true { return nil }
            resliceRequested = true
            if current.transfer == nil { current.isCancelRequested = true }
            return current.transfer
        }
        transfer?.cancel()
    }

    /// The most body bytes held in memory at once, and how many times the sink paused the transfer (tests).
    var peakHeldBytes: Int { state.withLock { peakHeld } }
    var timesPaused: Int { state.withLock { pauses } }

    private var host: String { url.host ?? "the server" }
    private var folder: URL { destination.deletingLastPathComponent() }

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
            let offset: Int64 = try lock.withLock {
                guard !isCancelledNow else { throw TransferFailure.cancelled }
                let onDisk = PartialDownload.size(of: destination)
                let resume = onDisk > 0 && onDisk <= size && PartialDownload.metadata(of: destination) == current
                let offset = resume ? onDisk : 0
                try checkFreeSpace(needed: size - offset)
                if !resume {
                    PartialDownload.remove(destination)
                    try PartialDownload.write(current, of: destination)
                }
                writer = try PartialWriter(url: destination, truncate: !resume, bufferSize: environment.blockSize)
                state.withLock {
                    metadata = current
                    self.received = offset
                    progressThrottle = ProgressThrottle()
                }
                return offset
            }
            try input.seek(toOffset: UInt64(offset))
            var copied = offset
            while let chunk = try input.read(upToCount: 64 << 10), !chunk.isEmpty {
                pace(chunk.count)
                let report: Int64? = try lock.withLock {
                    guard !isCancelledNow, let writer else { throw TransferFailure.cancelled }
                    try writer.write(chunk)
                    copied += Int64(chunk.count)
                    guard state.withLock({ shouldReport(copied, of: size) }) else { return nil }
                    try writer.flush()
                    return copied
                }
                if let report { onProgress(report, size) }
            }
            try lock.withLock {
                guard !isCancelledNow, let writer else { throw TransferFailure.cancelled }
                try writer.flush()
                writer.close()
                self.writer = nil
            }
            guard PartialDownload.size(of: destination) == size else {
                throw TransferFailure.transient("\(url.lastPathComponent) changed while it was being copied")
            }
            finish(.success(()))
        } catch {
            finish(.failure(Self.failure(from: error)))
        }
    }

    /// Waits as long as the shared rate limit asks, in short slices so a cancel is not held up (file copies
    /// only, on their own queue: http is held to the limit at the socket).
    private func pace(_ bytes: Int) {
        var remaining = environment.limiter.reserve(bytes)
        while remaining > 0 && !isCancelledNow {
            let slice = min(remaining, 0.05)
            Thread.sleep(forTimeInterval: slice)
            remaining -= slice
        }
    }

    // MARK: http and https: requests

    /// Starts a request: a ranged, conditional one when the partial file can be continued. On `work`.
    private func startRequest() {
        let begun: (Attempt, HTTPRequest)? = lock.withLock {
            guard !isCancelledNow else { return nil }
            let onDisk = PartialDownload.size(of: destination)
            let stored = PartialDownload.metadata(of: destination)
            // Reading the limit and publishing the attempt happen under one hold of `state`, so a limit set
            // meanwhile either is read here or finds the attempt (`rateLimitWasSet`).
            return state.withLock { () -> (Attempt, HTTPRequest)? in
                guard !isCancelled else { return nil }
                var headers = ["Accept-Encoding": "identity"]
                let offset: Int64
                if let stored, stored.url == url.absoluteString, onDisk > 0, stored.length.map({ onDisk <= $0 }) ?? true {
                    offset = onDisk
                    metadata = stored
                    if let validator = stored.validator { headers["If-Range"] = validator }
                } else {
                    offset = 0
                    metadata = nil
                }
                let sliceLast = environment.limiter.bytesPerSecond.map { offset + Self.sliceLength(bytesPerSecond: $0) - 1 }
                if let sliceLast {
                    headers["Range"] = "bytes=\(offset)-\(sliceLast)"
                } else if offset > 0 {
                    headers["Range"] = "bytes=\(offset)-"
                }
                received = offset
                resliceRequested = false
                let attempt = Attempt(offset: offset, stored: metadata, requestedSliceLast: sliceLast)
                current = attempt
                let request = HTTPRequest(url: url, headers: headers, limits: requestLimits, isRateLimited: true, decodesContent: false)
                return (attempt, request)
            }
        }
        guard let (attempt, request) = begun else { return finish(.failure(.cancelled)) }
        let transfer = environment.client.start(request, sink: self) { [self] event in handle(event, of: attempt) }
        let cancelNow = state.withLock { () -> Bool in
            attempt.transfer = transfer
            return attempt.isCancelRequested
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

    /// About one second's worth at the limit, between 64 KiB and 4 MiB.
    static func sliceLength(bytesPerSecond: Int) -> Int64 {
        Int64(min(max(bytesPerSecond, 64 << 10), 4 << 20))
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

    /// What a response means for the partial file.
    private enum Verdict {
        case accept(PartialMetadata, append: Bool, remaining: Int64?)
        case restart(String)
        case fail(TransferFailure)
    }

    private func responded(_ head: HTTPResponseHead, _ attempt: Attempt) {
        let verdict = state.withLock { () -> Verdict? in
            guard attempt === current, !isCancelled else { return nil }
            attempt.head = head
            return judge(head, attempt)
        }
        switch verdict {
        case nil:
            return
        case .accept(let metadata, let append, let remaining)?:
            let accepted = state.withLock { () -> Bool in
                guard !isCancelled, failure == nil else { return false }
                attempt.isAccepted = true
                self.metadata = metadata
                received = append ? attempt.offset : 0
                progressThrottle = ProgressThrottle()
                if filling == nil { filling = takeSpare() }
                return true
            }
            if accepted { work.async { self.prepare(attempt, metadata: metadata, append: append, remaining: remaining) } }
        case .restart(let reason)?:
            let allowed = state.withLock { () -> Bool in
                guard restarts < 2 else { return false }
                restarts += 1
                restartRequested = true
                return true
            }
            if allowed { cancel(attempt) } else { stop(attempt, .transient(reason)) }
        case .fail(let failure)?:
            stop(attempt, failure)
        }
    }

    /// The resume protocol, from the response's head and what the request continued from. Called with `state` held.
    private func judge(_ head: HTTPResponseHead, _ attempt: Attempt) -> Verdict {
        let offset = attempt.offset
        let stored = attempt.stored
        let validator = Self.validator(etag: head.header("ETag"), lastModified: head.header("Last-Modified"))
        let sameRepresentation = validator == nil || stored?.validator == nil || validator == stored?.validator
        let contentRange = head.header("Content-Range").flatMap(ContentRange.init)
        let misfit = "\(host) sent a part of the issue that does not fit the download"
        switch head.status {
        case 206 where offset == 0 && stored == nil && attempt.asksForSlice:
            // The first slice of a rate-limited download: a fresh start, like a 200, told the total by Content-Range.
            guard let contentRange, contentRange.first == 0 else { return .restart(misfit) }
            if let problem = Self.webPageProblem(head) { return .fail(.permanent(problem)) }
            let length = contentRange.total ?? Self.lengthIfLastSlice(contentRange, asked: attempt.requestedSliceLast)
            attempt.sliceLast = contentRange.last
            return .accept(PartialMetadata(url: url.absoluteString, validator: validator, length: length), append: false, remaining: length)
        case 206:
            guard offset > 0, let stored, let contentRange, contentRange.first == offset, sameRepresentation,
                  contentRange.total == nil || stored.length == nil || contentRange.total == stored.length else { return .restart(misfit) }
            if let problem = Self.webPageProblem(head) { return .fail(.permanent(problem)) }
            var updated = stored
            updated.length = contentRange.total ?? stored.length
                ?? (attempt.asksForSlice ? Self.lengthIfLastSlice(contentRange, asked: attempt.requestedSliceLast) : nil)
            if attempt.asksForSlice { attempt.sliceLast = contentRange.last }
            return .accept(updated, append: true, remaining: (updated.length ?? contentRange.last + 1) - contentRange.first)
        case 200..<300:
            if let problem = Self.webPageProblem(head) { return .fail(.permanent(problem)) }
            let length = head.contentLength
            return .accept(PartialMetadata(url: url.absoluteString, validator: validator, length: length), append: false, remaining: length)
        default:
            return .fail(.permanent("\(host) answered \(head.status) \(Self.reasonPhrase(head.status))"))
        }
    }

    /// The whole length, when a slice's reply of unknown total (`bytes N-M/*`) ends before the slice
    /// asked for: then it is the last one.
    private static func lengthIfLastSlice(_ range: ContentRange, asked last: Int64?) -> Int64? {
        last.flatMap { range.last < $0 ? range.last + 1 : nil }
    }

    /// Prepares the partial file for the body: sidecar first (fsynced), then the data file, appended or emptied.
    /// On `work`, before any block of this response.
    private func prepare(_ attempt: Attempt, metadata: PartialMetadata, append: Bool, remaining: Int64?) {
        do {
            try lock.withLock {
                guard state.withLock({ !isCancelled && failure == nil && attempt === current }) else { return }
                try checkFreeSpace(needed: remaining ?? 0)
                if !append { PartialDownload.remove(destination) }
                if !append || PartialDownload.metadata(of: destination) != metadata {
                    try PartialDownload.write(metadata, of: destination)
                }
                writer = try PartialWriter(url: destination, truncate: !append)
            }
        } catch {
            stop(attempt, Self.failure(from: error))
        }
    }

    /// Records why the transfer fails (the first reason wins) and stops its request.
    private func stop(_ attempt: Attempt, _ failure: TransferFailure) {
        state.withLock { if self.failure == nil { self.failure = failure } }
        cancel(attempt)
    }

    /// Cancels a request, now or as soon as the client has handed it over.
    private func cancel(_ attempt: Attempt) {
        let transfer: HTTPTransfer? = state.withLock {
            if attempt.transfer == nil { attempt.isCancelRequested = true }
            return attempt.transfer
        }
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
        let verdict = state.withLock { () -> HTTPSinkVerdict in
            guard !isCancelled, failure == nil, let attempt = current, attempt.isAccepted, var block = filling else {
                return .failed("the download was stopped")
            }
            if let until = pacedUntil {
                if DispatchTime.now() < until {
                    pausedTransfer = transfer
                    if !isPacingResumeScheduled {
                        isPacingResumeScheduled = true
                        resumeAt = until
                    }
                    return .full
                }
                pacedUntil = nil
            }
            let count = bytes.count
            if received + Int64(count) > sizeBound.bytes {
                failure = .permanent(sizeBound.message)
                return .failed(sizeBound.message)
            }
            let depth = max(1, environment.queuedBlocks)
            if count > block.room {
                guard queued.count < depth else {
                    if pausedTransfer == nil { pauses += 1 }
                    pausedTransfer = transfer
                    return .full
                }
                let room = block.room
                block.append(UnsafeRawBufferPointer(rebasing: bytes[..<room]))
                queued.append(block)
                block = takeSpare()
                filling = block
                block.append(UnsafeRawBufferPointer(rebasing: bytes[room...]))
                handedOff = true
            } else {
                block.append(bytes)
            }
            received += Int64(count)
            let wait = environment.limiter.reserve(count)
            if wait > 0 { pacedUntil = .now() + wait }
            let expected = metadata?.length
            if handedOff {
                // Once the block is written, everything but what fills the next one is in the file.
                let onDisk = received - Int64(block.count)
                if shouldReport(onDisk, of: expected) { report = (onDisk, expected) }
            } else if block.count > 0 {
                // A full block goes as soon as there is room in the queue; a partial one only when the disk is
                // idle and progress is due, so every byte count reported is in the file.
                let goes: Bool
                if block.isFull && queued.count < depth {
                    goes = true
                    if shouldReport(received, of: expected) { report = (received, expected) }
                } else if queued.isEmpty, shouldReport(received, of: expected) {
                    goes = true
                    report = (received, expected)
                } else {
                    goes = false
                }
                if goes {
                    queued.append(block)
                    filling = takeSpare()
                    handedOff = true
                }
            }
            peakHeld = max(peakHeld, (filling?.count ?? 0) + queued.reduce(0) { $0 + $1.count })
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
        let paused: HTTPTransfer? = state.withLock {
            isPacingResumeScheduled = false
            defer { pausedTransfer = nil }
            return pausedTransfer
        }
        paused?.resume()
    }

    /// Writes the oldest block the sink handed off (one call per block handed off), then lets a paused
    /// transfer go on and reports the bytes now in the file. On `work`.
    private func writeQueued(report: (received: Int64, expected: Int64?)?) {
        var failed: TransferFailure?
        var wrote = false
        let paused: HTTPTransfer? = lock.withLock {
            let (block, cancelled, failedBefore) = state.withLock { (queued.first, isCancelled, failure != nil) }
            // After a cancel, `cancel()` has written what was held.
            guard let block, !cancelled else { return nil }
            if !failedBefore, let writer {
                do {
                    try write(block, to: writer)
                    wrote = true
                } catch {
                    failed = Self.failure(from: error)
                }
            }
            return state.withLock { () -> HTTPTransfer? in
                queued.removeFirst()
                recycle([block])
                if let failed, failure == nil { failure = failed }
                let paused = pausedTransfer
                pausedTransfer = nil
                return failure == nil ? paused : nil
            }
        }
        if failed != nil, let attempt = state.withLock({ current }) { cancel(attempt) }
        paused?.resume()
        if wrote, let report { onProgress(report.received, report.expected) }
    }

    /// Writes one block to the partial file, unless that would take the disk's free space below the reserve.
    /// Called with `lock` held.
    private func write(_ block: HeldBlock, to writer: PartialWriter) throws {
        guard block.count > 0 else { return }
        if let free = environment.freeSpace(folder), free - Int64(block.count) < environment.diskReserve {
            throw TransferFailure.stopped("stopped with \(FreeSpace.megabytes(free)) MB free on the disk: downloads keep "
                + "\(HTTPError.size(environment.diskReserve)) free (disk-reserve); free some space or lower disk-reserve "
                + "in the config file, then download again to continue")
        }
        environment.beforeWrite(block.count)
        try writer.write(block.bytes)
    }

    /// The blocks still held, oldest first. Called with `state` held.
    private func takeHeldBlocks() -> [HeldBlock] {
        var held = queued
        queued = []
        if let filling, filling.count > 0 {
            held.append(filling)
            self.filling = nil
        }
        return held
    }

    /// Keeps written blocks for reuse (no more than a full queue's worth). Called with `state` held.
    private func recycle(_ blocks: [HeldBlock]) {
        for block in blocks {
            block.count = 0
            if filling == nil {
                filling = block
            } else if spares.count < max(1, environment.queuedBlocks) {
                spares.append(block)
            }
        }
    }

    /// A block to fill: a written one, else a new one. Called with `state` held.
    private func takeSpare() -> HeldBlock {
        spares.popLast() ?? HeldBlock(capacity: environment.blockSize)
    }

    // MARK: http and https: the end of a request

    private func ended(_ attempt: Attempt, error: HTTPError?) {
        state.withLock {
            attempt.hasEnded = true
            if pausedTransfer === attempt.transfer { pausedTransfer = nil }
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
        let next: Next = lock.withLock {
            let (held, cancelled, failedBefore, restart) = state.withLock {
                (takeHeldBlocks(), isCancelled, failure != nil, restartRequested)
            }
            if let writer {
                if !cancelled, !failedBefore, !restart {
                    do {
                        for block in held { try write(block, to: writer) }
                        if !held.isEmpty {
                            report = state.withLock { () -> (Int64, Int64?)? in
                                let expected = metadata?.length
                                return shouldReport(received, of: expected) ? (received, expected) : nil
                            }
                        }
                    } catch {
                        let failed = Self.failure(from: error)
                        state.withLock { if failure == nil { failure = failed } }
                    }
                }
                writer.close()
                self.writer = nil
            }
            state.withLock {
                recycle(held)
                if current === attempt { current = nil }
            }
            return decideAfter(attempt, error: error)
        }
        if let report { onProgress(report.received, report.expected) }
        switch next {
        case .again: startRequest()
        case .done(let result): finish(result)
        }
    }

    /// Called with `lock` held.
    private func decideAfter(_ attempt: Attempt, error: HTTPError?) -> Next {
        let (cancelled, failure, restart, reslice, metadata) = state.withLock { () -> (Bool, TransferFailure?, Bool, Bool, PartialMetadata?) in
            defer {
                restartRequested = false
                resliceRequested = false
            }
            return (isCancelled, self.failure, restartRequested, resliceRequested, self.metadata)
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
            return .done(.failure(classify(error)))
        }
        let onDisk = PartialDownload.size(of: destination)
        if let sliceLast = attempt.sliceLast, onDisk == sliceLast + 1, metadata?.length.map({ onDisk < $0 }) ?? true {
            return .again  // a whole slice arrived: ask for the next one
        }
        if let length = metadata?.length, onDisk != length {
            return .done(.failure(.transient("the download stopped early: \(onDisk) of \(length) bytes arrived")))
        }
        return .done(.success(()))
    }

    /// A 416: the partial is complete (finish it), or the download starts over (at most twice). Called with `lock` held.
    private func rangeNotSatisfiable(_ head: HTTPResponseHead, _ attempt: Attempt) -> Next {
        let offset = attempt.offset
        let validator = Self.validator(etag: head.header("ETag"), lastModified: head.header("Last-Modified"))
        let sameRepresentation = validator == nil || attempt.stored?.validator == nil || validator == attempt.stored?.validator
        let total = head.header("Content-Range").flatMap(ContentRange.init)?.total
        var complete: PartialMetadata?
        if offset > 0, let stored = attempt.stored, let length = stored.length, offset == length, sameRepresentation,
           total == nil || total == length {
            complete = stored
        } else if offset > 0, var stored = attempt.stored, stored.length == nil, sameRepresentation, total == offset {
            // The server would not say the length before; now it does, and the partial has all of it.
            stored.length = offset
            try? PartialDownload.write(stored, of: destination)
            complete = stored
        }
        if let complete {
            state.withLock { metadata = complete }
            return .done(PartialDownload.size(of: destination) == complete.length
                         ? .success(()) : .failure(.transient("the partial download does not match the server's")))
        }
        let allowed = state.withLock { () -> Bool in
            guard restarts < 2 else { return false }
            restarts += 1
            return true
        }
        guard allowed else { return .done(.failure(.transient("\(host) could not continue the download (416 Range Not Satisfiable)"))) }
        PartialDownload.remove(destination)
        return .again
    }

    /// What a failed request means for the download, in the words the issue's row shows.
    private func classify(_ error: HTTPError) -> TransferFailure {
        switch error {
        case .status(let head):
            let status = head.status
            let phrase = Self.reasonPhrase(status)
            switch status {
            case 401, 403:
                return .permanent("the server refused access (\(status) \(phrase))")
            case 404, 410:
                return .permanent("the issue is no longer on the server (\(status) \(phrase))")
            case 408, 429, 500...599:
                return .transient("\(host) answered \(status) \(phrase)", retryAfter: Self.retryAfter(head.header("Retry-After")))
            default:
                return .permanent("\(host) answered \(status) \(phrase)")
            }
        case .tooLarge:
            return .permanent(sizeBound.message)
        case .sink(let reason):
            return .permanent(reason)
        case .cancelled:
            return .transient("the transfer from \(host) stopped")
        default:
            return error.isTransient ? .transient(error.description) : .permanent(error.description)
        }
    }

    // MARK: helpers

    private var isCancelledNow: Bool { state.withLock { isCancelled } }

    /// Whether `received` bytes of `expected` are worth reporting: the same rule as the queue's own
    /// `ProgressThrottle` (half a percent or 0.1 s), applied to this asset. Called with `state` held;
    /// the bytes reported are in the partial file by the time they are reported (another process, or a
    /// later run after a crash, sees at least that much).
    private func shouldReport(_ received: Int64, of expected: Int64?) -> Bool {
        let fraction = expected.map { $0 > 0 ? Double(received) / Double($0) : 0 } ?? 0
        return progressThrottle.shouldReport(fraction)
    }

    /// Checks, before a body is written, that it fits and leaves the reserve free. Called with `lock` held.
    private func checkFreeSpace(needed: Int64) throws {
        guard let free = environment.freeSpace(folder) else { return }
        let needed = max(0, needed)
        if needed > 0, free < needed {
            throw TransferFailure.stopped("not enough free space: need \(FreeSpace.megabytes(needed)) MB, have \(FreeSpace.megabytes(free)) MB")
        }
        if free - needed < environment.diskReserve {
            throw TransferFailure.stopped("not enough free space: need \(FreeSpace.megabytes(needed)) MB and downloads keep "
                + "\(HTTPError.size(environment.diskReserve)) free (disk-reserve), have \(FreeSpace.megabytes(free)) MB; "
                + "free some space or lower disk-reserve in the config file")
        }
    }

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
        if case .success = result, !state.withLock({ isFinished }) {
            do { try syncUnlessChecked() } catch { result = .failure(Self.failure(from: error)) }
        }
        let first = state.withLock { () -> Bool in
            defer { isFinished = true }
            return !isFinished
        }
        if first { onCompletion(result) }
    }

    static func failure(from error: Error) -> TransferFailure {
        switch error {
        case let failure as TransferFailure: failure
        case let error as DownloadError: .permanent(error.description)
        default: .permanent("cannot write the download: \(error.localizedDescription)")
        }
    }

    /// A text reply where an issue was expected (a captive portal, an error page sent with 200), or audio
    /// or video (a podcast's file): found at the response's head, so no byte of the body is written.
    static func webPageProblem(_ head: HTTPResponseHead) -> String? {
        let type = (head.header("Content-Type") ?? "").lowercased()
        if ContentKind.isStreamedMedia(contentType: type), case .other(let kind) = ContentKind.of(type: type) {
            return "the server sent \(kind), not a readable issue (EPUB, PDF or comic)"
        }
        guard type.hasPrefix("text/html") || type.hasPrefix("text/plain") else { return nil }
        return "the server sent a web page (\(type)) instead of the issue"
    }

    /// The validator stored with a partial: a strong ETag, else Last-Modified.
    static func validator(etag: String?, lastModified: String?) -> String? {
        if let etag, !etag.isEmpty, !etag.hasPrefix("W/") { return etag }
        if let lastModified, !lastModified.isEmpty { return lastModified }
        return nil
    }

    /// Retry-After as seconds from now: delta-seconds or an HTTP-date.
    static func retryAfter(_ value: String?, now: Date = Date()) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return TimeInterval(max(0, seconds)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: value) { return max(0, date.timeIntervalSince(now)) }
        }
        return nil
    }

    static func reasonPhrase(_ status: Int) -> String {
        let phrases: [Int: String] = [
            400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
            408: "Request Timeout", 410: "Gone", 416: "Range Not Satisfiable", 429: "Too Many Requests",
            500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
        ]
        return phrases[status] ?? HTTPResponseHead.standardReasons[status] ?? "(status \(status))"
    }
}

/// A `Content-Range: bytes FIRST-LAST/TOTAL` header (TOTAL may be `*`), or `bytes */TOTAL` for a 416.
struct ContentRange: Equatable {
    var first: Int64
    var last: Int64
    var total: Int64?

    init?(_ header: String) {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes") else { return nil }
        let spec = text.dropFirst(5).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        total = Int64(parts[1])
        if parts[0] == "*" {
            first = -1
            last = -1
            return
        }
        let bounds = parts[0].split(separator: "-", maxSplits: 1).map { Int64($0) }
        guard bounds.count == 2, let first = bounds[0], let last = bounds[1], first <= last else { return nil }
        self.first = first
        self.last = last
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a transfer stopped, and whether trying again could help.
struct TransferFailure: Error, Equatable {
    enum Kind: Equatable {
        /// Worth another attempt (timeouts, dropped connections, 5xx, 408, 429), after at least `retryAfter` seconds if given.
        case transient(retryAfter: TimeInterval?)
        /// Trying again will not help (refused, gone, not an issue, disk full).
        case permanent
        /// Stopped on request (pause or cancel).
        case cancelled
    }

    let reason: String
    let kind: Kind

    static func permanent(_ reason: String) -> TransferFailure { TransferFailure(reason: reason, kind: .permanent) }
    static func transient(_ reason: String, retryAfter: TimeInterval? = nil) -> TransferFailure {
        TransferFailure(reason: reason, kind: .transient(retryAfter: retryAfter))
    }
    static let cancelled = TransferFailure(reason: "cancelled", kind: .cancelled)
}

/// Fetches one asset (one URL) of an issue into its partial file, streaming, resuming what an earlier
/// attempt left there when that is provably the same representation, and reports bytes as they land.
///
/// Before the first byte is written, the response's validator (strong ETag, else Last-Modified) and
/// length go into the partial's sidecar (`PartialDownload`), fsynced. A later attempt asks for
/// `Range: bytes=N-` with `If-Range`, and appends only to a 206 whose Content-Range starts at N (and
/// whose total and validator agree); a 200, a changed validator or a range that does not fit start the
/// file over from zero; a 416 for a partial that is already complete finishes it. file URLs resume by
/// offset when the source's size and modification time are unchanged.
///
/// http and https go through URLSession's data delegate so nothing is held in memory; file URLs are
/// copied in chunks on a background queue. Every file operation happens under `lock` after checking
/// for cancellation, so once `cancel()` returns this transfer never touches the partial again.
/// Callbacks arrive on a background queue.
///
/// Under a rate limit, http asks for the file in slices of about a second's worth (`Range: bytes=N-M`,
/// one after another on one session) and paces what it writes: URLSession cannot be told to read the
/// socket more slowly, so the slices are what keep the network itself near the limit, with at most one
/// slice waiting in memory. A server that answers a slice with the whole file (200) is paced on writing only.
final class AssetTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    typealias Progress = @Sendable (_ received: Int64, _ expected: Int64?) -> Void
    typealias Completion = @Sendable (Result<Void, TransferFailure>) -> Void

    /// What transfers of one queue share.
    struct Environment: Sendable {
        let limiter: RateLimiter
        /// Free bytes on the file system of a folder (statvfs; tests inject small figures).
        let freeSpace: @Sendable (URL) -> Int64?
        /// Forces a finished partial to disk when nothing will check it (see `syncUnlessChecked`).
        var diskSync: DiskSync = .fsync
        var requestTimeout: TimeInterval = 60
    }

    private let url: URL
    private let destination: URL
    /// The catalog gives this asset's SHA-256, so whatever reaches the disk is hashed before it is installed.
    private let isCheckedBeforeInstall: Bool
    private let environment: Environment
    private let onProgress: Progress
    private let onCompletion: Completion
    private let lock = NSLock()
    private var session: URLSession?
    private var writer: PartialWriter?
    private var received: Int64 = 0
    private var metadata: PartialMetadata?
    private var resumeOffset: Int64 = 0
    private var failure: TransferFailure?
    private var isCancelled = false
    private var isFinished = false
    private var restartRequested = false
    private var restarts = 0
    private var isCompleteWithoutBody = false
    /// The last byte the current request asked for when it asks for a slice, else nil.
    private var requestedSliceLast: Int64?
    /// The last byte the current response should end on when it is a slice (a 206 to a closed range), else nil.
    private var sliceLast: Int64?
    /// The current request is being dropped to continue in slices (a rate limit was set meanwhile).
    private var resliceRequested = false
    /// The request in flight, while there is one.
    private var currentTask: URLSessionDataTask?
    /// Decides, at the source, which byte counts are worth passing on: the queue would throttle the same
    /// way, so reporting every network chunk only cost a hop to its queue per chunk.
    private var progressThrottle = ProgressThrottle()

    /// At most this many bytes are gathered in memory before they are written to the partial file; the
    /// buffer is also written out whenever progress is reported and at the end (see `syncUnlessChecked`
    /// for when it is forced to disk).
    static let writeBufferSize = 1 << 20

    init(url: URL, destination: URL, environment: Environment, isCheckedBeforeInstall: Bool = false,
         onProgress: @escaping Progress, onCompletion: @escaping Completion) {
        self.url = url
        self.destination = destination
        self.isCheckedBeforeInstall = isCheckedBeforeInstall
        self.environment = environment
        self.onProgress = onProgress
        self.onCompletion = onCompletion
    }

    func start() {
        switch url.scheme?.lowercased() {
        case "file":
            DispatchQueue.global(qos: .utility).async { self.copyFile() }
        case "http", "https":
            startRequest()
        default:
            finish(.failure(.permanent("cannot download from \(url.scheme ?? "a URL without a scheme"): only http, https and file are supported")))
        }
    }

    /// Stops the transfer; the partial file keeps what arrived (buffered bytes are written out).
    /// Synchronous with respect to writes.
    func cancel() {
        let session: URLSession? = lock.withLock {
            isCancelled = true
            try? writer?.flush()
            writer?.close()
            writer = nil
            return self.session
        }
        session?.invalidateAndCancel()
    }

    /// A rate limit was just set: a request that asks for the whole rest of the file is dropped and the
    /// transfer continues from its partial in slices, so the network slows down now, not at the next request.
    /// Only a request whose reply has not begun, or whose server takes ranges, is dropped: from a server
    /// that ignores them the rest would start over from zero.
    func rateLimitWasSet() {
        let task: URLSessionDataTask? = lock.withLock {
            guard !isCancelled, !isFinished, let currentTask, !Self.asksForSlice(currentTask) else { return nil }
            if let response = currentTask.response as? HTTPURLResponse, response.statusCode != 206,
               response.value(forHTTPHeaderField: "Accept-Ranges")?.lowercased().contains("bytes") != true { return nil }
            resliceRequested = true
            return currentTask
        }
        task?.cancel()
    }

    private var host: String { url.host ?? "the server" }

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
                guard !isCancelled else { throw TransferFailure.cancelled }
                let onDisk = PartialDownload.size(of: destination)
                let resume = onDisk > 0 && onDisk <= size && PartialDownload.metadata(of: destination) == current
                let offset = resume ? onDisk : 0
                try checkFreeSpace(needed: size - offset)
                if !resume {
                    PartialDownload.remove(destination)
                    try PartialDownload.write(current, of: destination)
                }
                writer = try PartialWriter(url: destination, truncate: !resume, bufferSize: Self.writeBufferSize)
                metadata = current
                received = offset
                progressThrottle = ProgressThrottle()
                return offset
            }
            try input.seek(toOffset: UInt64(offset))
            while let chunk = try input.read(upToCount: 64 << 10), !chunk.isEmpty {
                pace(chunk.count)
                let report: Int64? = try lock.withLock {
                    guard !isCancelled, let writer else { throw TransferFailure.cancelled }
                    try writer.write(chunk)
                    received += Int64(chunk.count)
                    guard shouldReport(received, of: size) else { return nil }
                    try writer.flush()
                    return received
                }
                if let report { onProgress(report, size) }
            }
            try lock.withLock {
                guard !isCancelled, let writer else { throw TransferFailure.cancelled }
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

    // MARK: http and https

    /// Starts a request: a ranged, conditional one when the partial file can be continued.
    /// Requests follow one another on one session (one kept-alive connection), made at the first request
    /// and invalidated when the transfer finishes.
    private func startRequest() {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: environment.requestTimeout)
        request.setValue("Newsstand/\(NewsstandVersion.string)", forHTTPHeaderField: "User-Agent")
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        // Everything from reading the limit to publishing the task happens under the lock, so a limit set
        // meanwhile finds the task (`rateLimitWasSet`) and a cancel cannot invalidate the session between.
        let started: Bool = lock.withLock {
            guard !isCancelled else { return false }
            let slice = environment.limiter.bytesPerSecond.map(Self.sliceLength(bytesPerSecond:))
            let onDisk = PartialDownload.size(of: destination)
            let stored = PartialDownload.metadata(of: destination)
            if let stored, stored.url == url.absoluteString, onDisk > 0, stored.length.map({ onDisk <= $0 }) ?? true {
                resumeOffset = onDisk
                metadata = stored
                if let validator = stored.validator { request.setValue(validator, forHTTPHeaderField: "If-Range") }
            } else {
                resumeOffset = 0
                metadata = nil
            }
            requestedSliceLast = slice.map { resumeOffset + $0 - 1 }
            if let requestedSliceLast {
                request.setValue("bytes=\(resumeOffset)-\(requestedSliceLast)", forHTTPHeaderField: "Range")
            } else if resumeOffset > 0 {
                request.setValue("bytes=\(resumeOffset)-", forHTTPHeaderField: "Range")
            }
            received = resumeOffset
            isCompleteWithoutBody = false
            sliceLast = nil
            resliceRequested = false
            let session = self.session ?? makeSession()
            self.session = session
            let task = session.dataTask(with: request)
            currentTask = task
            task.resume()
            return true
        }
        if !started { finish(.failure(.cancelled)) }
    }

    private func makeSession() -> URLSession {
        let operations = OperationQueue()
        operations.maxConcurrentOperationCount = 1
        let configuration = URLSessionConfiguration.default
        configuration.timeoutIntervalForRequest = environment.requestTimeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        return URLSession(configuration: configuration, delegate: self, delegateQueue: operations)
    }

    /// The whole length, when a slice's reply of unknown total (`bytes N-M/*`) ends before the slice
    /// asked for: then it is the last one.
    private func lengthIfLastSlice(_ range: ContentRange) -> Int64? {
        lock.withLock { requestedSliceLast.flatMap { range.last < $0 ? range.last + 1 : nil } }
    }

    /// Whether a task asks for a closed range (`bytes=N-M`), as slices do.
    static func asksForSlice(_ task: URLSessionTask) -> Bool {
        task.originalRequest?.value(forHTTPHeaderField: "Range")?.hasSuffix("-") == false
    }

    /// About one second's worth at the limit, between 64 KiB and 4 MiB.
    static func sliceLength(bytesPerSecond: Int) -> Int64 {
        Int64(min(max(bytesPerSecond, 64 << 10), 4 << 20))
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard let http = response as? HTTPURLResponse else {
            fail(.transient("unexpected reply from \(host)"))
            return completionHandler(.cancel)
        }
        let status = http.statusCode
        let (offset, stored) = lock.withLock { (resumeOffset, metadata) }
        let validator = Self.validator(etag: http.value(forHTTPHeaderField: "ETag"), lastModified: http.value(forHTTPHeaderField: "Last-Modified"))
        let sameRepresentation = validator == nil || stored?.validator == nil || validator == stored?.validator
        let contentRange = http.value(forHTTPHeaderField: "Content-Range").flatMap(ContentRange.init)
        let askedForSlice = Self.asksForSlice(dataTask)
        switch status {
        case 206 where offset == 0 && stored == nil && askedForSlice:
            // The first slice of a rate-limited download: a fresh start, like a 200, told the total by Content-Range.
            guard let contentRange, contentRange.first == 0 else {
                return restart(completionHandler, reason: "\(host) sent a part of the issue that does not fit the download")
            }
            if let problem = Self.webPageProblem(http) { fail(.permanent(problem)); return completionHandler(.cancel) }
            let length = contentRange.total ?? lengthIfLastSlice(contentRange)
            lock.withLock { sliceLast = contentRange.last }
            accept(completionHandler, metadata: PartialMetadata(url: url.absoluteString, validator: validator, length: length),
                   append: false, remaining: length)
        case 206:
            guard offset > 0, let stored, let contentRange, contentRange.first == offset, sameRepresentation,
                  contentRange.total == nil || stored.length == nil || contentRange.total == stored.length else {
                return restart(completionHandler, reason: "\(host) sent a part of the issue that does not fit the download")
            }
            if let problem = Self.webPageProblem(http) { fail(.permanent(problem)); return completionHandler(.cancel) }
            var updated = stored
            updated.length = contentRange.total ?? stored.length ?? (askedForSlice ? lengthIfLastSlice(contentRange) : nil)
            if askedForSlice { lock.withLock { sliceLast = contentRange.last } }
            accept(completionHandler, metadata: updated, append: true,
                   remaining: (updated.length ?? contentRange.last + 1) - contentRange.first)
        case 200..<300:
            if let problem = Self.webPageProblem(http) { fail(.permanent(problem)); return completionHandler(.cancel) }
            let length = http.expectedContentLength >= 0 ? http.expectedContentLength : nil
            accept(completionHandler, metadata: PartialMetadata(url: url.absoluteString, validator: validator, length: length),
                   append: false, remaining: length)
        case 416:
            if offset > 0, let length = stored?.length, offset == length, sameRepresentation,
               contentRange?.total == nil || contentRange?.total == length {
                lock.withLock { isCompleteWithoutBody = true }
                return completionHandler(.cancel)
            }
            if offset > 0, var stored, stored.length == nil, sameRepresentation, contentRange?.total == offset {
                // The server would not say the length before; now it does, and the partial has all of it.
                stored.length = offset
                lock.withLock {
                    guard !isCancelled else { return }
                    try? PartialDownload.write(stored, of: destination)
                    metadata = stored
                    isCompleteWithoutBody = true
                }
                return completionHandler(.cancel)
            }
            restart(completionHandler, reason: "\(host) could not continue the download (416 Range Not Satisfiable)")
        case 401, 403:
            fail(.permanent("the server refused access (\(status) \(Self.reasonPhrase(status)))"))
            completionHandler(.cancel)
        case 404, 410:
            fail(.permanent("the issue is no longer on the server (\(status) \(Self.reasonPhrase(status)))"))
            completionHandler(.cancel)
        case 408, 429, 500...599:
            fail(.transient("\(host) answered \(status) \(Self.reasonPhrase(status))",
                            retryAfter: Self.retryAfter(http.value(forHTTPHeaderField: "Retry-After"))))
            completionHandler(.cancel)
        default:
            fail(.permanent("\(host) answered \(status) \(Self.reasonPhrase(status))"))
            completionHandler(.cancel)
        }
    }

    /// Prepares the partial file for the body: sidecar first (fsynced), then the data file, appended or emptied.
    private func accept(_ completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void,
                        metadata: PartialMetadata, append: Bool, remaining: Int64?) {
        do {
            try lock.withLock {
                guard !isCancelled else { throw TransferFailure.cancelled }
                if let remaining { try checkFreeSpace(needed: remaining) }
                if !append { PartialDownload.remove(destination) }
                if !append || PartialDownload.metadata(of: destination) != metadata {
                    try PartialDownload.write(metadata, of: destination)
                }
                writer = try PartialWriter(url: destination, truncate: !append, bufferSize: Self.writeBufferSize)
                self.metadata = metadata
                received = append ? resumeOffset : 0
                progressThrottle = ProgressThrottle()
            }
            completionHandler(.allow)
        } catch {
            fail(Self.failure(from: error))
            completionHandler(.cancel)
        }
    }

    /// Abandons this response and asks again from zero (at most twice per transfer).
    private func restart(_ completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void, reason: String) {
        let allowed = lock.withLock { () -> Bool in
            guard restarts < 2 else { return false }
            restarts += 1
            restartRequested = true
            return true
        }
        if !allowed { fail(.transient(reason)) }
        completionHandler(.cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        pace(data.count)
        let outcome: Result<(received: Int64, expected: Int64?)?, TransferFailure>? = lock.withLock {
            guard !isCancelled, failure == nil, let writer else { return nil }
            do {
                try writer.write(data)
                received += Int64(data.count)
                let expected = metadata?.length
                guard shouldReport(received, of: expected) else { return .success(nil) }
                try writer.flush()
                return .success((received, expected))
            } catch {
                return .failure(Self.failure(from: error))
            }
        }
        switch outcome {
        case .success(let report?)?:
            onProgress(report.received, report.expected)
        case .success(nil)?:
            break
        case .failure(let error)?:
            fail(error)
            dataTask.cancel()
        case nil:
            break
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        enum Next { case again, done(Result<Void, TransferFailure>) }
        let next: Next = lock.withLock {
            currentTask = nil
            if let writer {
                do { try writer.flush() } catch { if failure == nil { failure = Self.failure(from: error) } }
                writer.close()
                self.writer = nil
            }
            if isCancelled { return .done(.failure(.cancelled)) }
            if let failure { return .done(.failure(failure)) }
            if restartRequested {
                restartRequested = false
                PartialDownload.remove(destination)
                return .again
            }
            if resliceRequested {
                resliceRequested = false
                return .again  // continues from the partial, in slices
            }
            let onDisk = PartialDownload.size(of: destination)
            if isCompleteWithoutBody {
                return .done(onDisk == metadata?.length ? .success(()) : .failure(.transient("the partial download does not match the server's")))
            }
            if let error {
                return .done(.failure(.transient("the connection to \(host) failed: \(error.localizedDescription)")))
            }
            if let sliceLast, onDisk == sliceLast + 1, metadata?.length.map({ onDisk < $0 }) ?? true {
                return .again  // a whole slice arrived: ask for the next one
            }
            if let length = metadata?.length, onDisk != length {
                return .done(.failure(.transient("the download stopped early: \(onDisk) of \(length) bytes arrived")))
            }
            return .done(.success(()))
        }
        switch next {
        case .again: startRequest()
        case .done(let result): finish(result)
        }
    }

    // MARK: helpers

    /// Whether `received` bytes of `expected` are worth reporting: the same rule as the queue's own
    /// `ProgressThrottle` (half a percent or 0.1 s), applied to this asset. Called with `lock` held;
    /// the caller flushes the write buffer before reporting, so every byte count reported is in the
    /// partial file (another process, or a later run after a crash, sees at least that much).
    private func shouldReport(_ received: Int64, of expected: Int64?) -> Bool {
        let fraction = expected.map { $0 > 0 ? Double(received) / Double($0) : 0 } ?? 0
        return progressThrottle.shouldReport(fraction)
    }

    /// Waits as long as the shared rate limit asks, in short slices so a cancel is not held up.
    private func pace(_ bytes: Int) {
        var remaining = environment.limiter.reserve(bytes)
        while remaining > 0 && !lock.withLock({ isCancelled }) {
            let slice = min(remaining, 0.05)
            Thread.sleep(forTimeInterval: slice)
            remaining -= slice
        }
    }

    /// Called with `lock` held.
    private func checkFreeSpace(needed: Int64) throws {
        guard needed > 0, let free = environment.freeSpace(destination.deletingLastPathComponent()), free < needed else { return }
        throw TransferFailure.permanent("not enough free space: need \(FreeSpace.megabytes(needed)) MB, have \(FreeSpace.megabytes(free)) MB")
    }

    private func fail(_ error: TransferFailure) {
        lock.withLock { if failure == nil { failure = error } }
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
        if case .success = result, !lock.withLock({ isFinished }) {
            do { try syncUnlessChecked() } catch { result = .failure(Self.failure(from: error)) }
        }
        let (first, session) = lock.withLock { () -> (Bool, URLSession?) in
            defer { isFinished = true; self.session = nil }
            return (!isFinished, self.session)
        }
        session?.finishTasksAndInvalidate()
        if first { onCompletion(result) }
    }

    static func failure(from error: Error) -> TransferFailure {
        switch error {
        case let failure as TransferFailure: failure
        case let error as DownloadError: .permanent(error.description)
        default: .permanent("cannot write the download: \(error.localizedDescription)")
        }
    }

    /// A text reply where an issue was expected (a captive portal, an error page sent with 200).
    static func webPageProblem(_ response: HTTPURLResponse) -> String? {
        let type = (response.value(forHTTPHeaderField: "Content-Type") ?? "").lowercased()
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
        return phrases[status] ?? HTTPURLResponse.localizedString(forStatusCode: status).capitalized
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

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches one asset (one URL) of an issue into a partial file, streaming, and reports bytes as they land.
///
/// http and https go through URLSession's data delegate so nothing is held in memory;
/// file URLs are copied in chunks on a background queue. Callbacks arrive on a background queue.
final class AssetTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    typealias Progress = @Sendable (_ received: Int64, _ expected: Int64?) -> Void
    typealias Completion = @Sendable (Result<Void, DownloadError>) -> Void

    private let url: URL
    private let destination: URL
    private let onProgress: Progress
    private let onCompletion: Completion
    private let lock = NSLock()
    private var session: URLSession?
    private var handle: FileHandle?
    private var received: Int64 = 0
    private var expected: Int64?
    private var failure: DownloadError?
    private var isCancelled = false
    private var isFinished = false

    init(url: URL, destination: URL, onProgress: @escaping Progress, onCompletion: @escaping Completion) {
        self.url = url
        self.destination = destination
        self.onProgress = onProgress
        self.onCompletion = onCompletion
    }

    func start() {
        switch url.scheme?.lowercased() {
        case "file":
            DispatchQueue.global(qos: .utility).async { self.copyFile() }
        case "http", "https":
            let operations = OperationQueue()
            operations.maxConcurrentOperationCount = 1
            let configuration = URLSessionConfiguration.default
            configuration.timeoutIntervalForRequest = 60
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            let session = URLSession(configuration: configuration, delegate: self, delegateQueue: operations)
            lock.withLock { self.session = session }
            var request = URLRequest(url: url)
            request.setValue("Newsstand/\(NewsstandVersion.string)", forHTTPHeaderField: "User-Agent")
            session.dataTask(with: request).resume()
        default:
            finish(.failure(DownloadError("cannot download from \(url.scheme ?? "a URL without a scheme"): only http, https and file are supported")))
        }
    }

    func cancel() {
        let session: URLSession? = lock.withLock {
            isCancelled = true
            return self.session
        }
        session?.invalidateAndCancel()
    }

    private var cancelled: Bool { lock.withLock { isCancelled } }

    // MARK: file URLs

    private func copyFile() {
        do {
            guard let input = FileHandle(forReadingAtPath: url.path) else {
                throw DownloadError("cannot read \(url.path)")
            }
            defer { try? input.close() }
            let size = FileSize.of(url)
            let output = try openDestination()
            defer { try? output.close() }
            var copied: Int64 = 0
            while let chunk = try input.read(upToCount: 256 << 10), !chunk.isEmpty {
                if cancelled { throw DownloadError("cancelled") }
                try output.write(contentsOf: chunk)
                copied += Int64(chunk.count)
                onProgress(copied, size)
            }
            try output.synchronize()
            finish(.success(()))
        } catch let error as DownloadError {
            finish(.failure(error))
        } catch {
            finish(.failure(DownloadError(Self.describe(writeError: error))))
        }
    }

    // MARK: http and https

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard let http = response as? HTTPURLResponse else {
            fail(DownloadError("unexpected reply from \(url.host ?? "the server")"))
            return completionHandler(.cancel)
        }
        guard (200..<300).contains(http.statusCode) else {
            fail(DownloadError("\(url.host ?? "the server") answered \(http.statusCode) \(HTTPURLResponse.localizedString(forStatusCode: http.statusCode))"))
            return completionHandler(.cancel)
        }
        let type = (http.value(forHTTPHeaderField: "Content-Type") ?? "").lowercased()
        if type.hasPrefix("text/html") || type.hasPrefix("text/plain") {
            fail(DownloadError("the server sent a web page (\(type)) instead of the issue"))
            return completionHandler(.cancel)
        }
        do {
            let handle = try openDestination()
            lock.withLock {
                self.handle = handle
                expected = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
            }
            completionHandler(.allow)
        } catch {
            fail(DownloadError(Self.describe(writeError: error)))
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let (handle, expected) = lock.withLock { (self.handle, self.expected) }
        guard let handle else { return }
        do {
            try handle.write(contentsOf: data)
        } catch {
            fail(DownloadError(Self.describe(writeError: error)))
            dataTask.cancel()
            return
        }
        let total = lock.withLock { () -> Int64 in
            received += Int64(data.count)
            return received
        }
        onProgress(total, expected)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        session.finishTasksAndInvalidate()
        let (handle, received, expected, failure, cancelled) = lock.withLock { (self.handle, self.received, self.expected, self.failure, self.isCancelled) }
        try? handle?.synchronize()
        try? handle?.close()
        if let failure { return finish(.failure(failure)) }
        if cancelled { return finish(.failure(DownloadError("cancelled"))) }
        if let error {
            return finish(.failure(DownloadError("the connection to \(url.host ?? "the server") failed: \(error.localizedDescription)")))
        }
        if let expected, expected != received {
            return finish(.failure(DownloadError("the download stopped early: \(received) of \(expected) bytes arrived")))
        }
        finish(.success(()))
    }

    // MARK: helpers

    private func openDestination() throws -> FileHandle {
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: destination.path, contents: nil)
        return try FileHandle(forWritingTo: destination)
    }

    private func fail(_ error: DownloadError) {
        lock.withLock { if failure == nil { failure = error } }
    }

    private func finish(_ result: Result<Void, DownloadError>) {
        let first = lock.withLock { () -> Bool in
            defer { isFinished = true }
            return !isFinished
        }
        if first { onCompletion(result) }
    }

    static func describe(writeError error: Error) -> String {
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain && nsError.code == Int(ENOSPC) || nsError.code == NSFileWriteOutOfSpaceError {
            return "the disk is full"
        }
        return "cannot write the download: \(nsError.localizedDescription)"
    }
}

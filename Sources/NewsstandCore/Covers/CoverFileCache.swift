import Foundation
import Synchronization

/// Cover image files on disk, kept fresh with HTTP validators.
///
/// Each cover is stored as `ISSUEID-NAME` in the cache folder, with its validators beside it in
/// `ISSUEID-NAME.validators` (the source URL, `ETag`, `Last-Modified`, and when it was last checked).
/// A cached file is revalidated (`If-None-Match` / `If-Modified-Since`) at most once per instance
/// (one per process run) per cover, and again once its last check is older than `revalidationInterval`.
/// `304 Not Modified` keeps the file; `200` replaces it; if the source cannot be reached the cached
/// file is used as it is. `file:` URLs use the file's size and modification time as their validator.
/// Thread-safe; concurrent callers for the same cover wait for one fetch.
final class CoverFileCache: Sendable {
    struct Validators: Equatable {
        var url: String
        var etag: String?
        var lastModified: String?
        var checked: Date

        init(url: String, etag: String?, lastModified: String?, checked: Date) {
            self.url = url
            self.etag = etag
            self.lastModified = lastModified
            self.checked = checked
        }

        init?(text: String) {
            var fields: [String: String] = [:]
            for line in text.split(separator: "\n") {
                guard let space = line.firstIndex(of: " ") else { continue }
                fields[String(line[..<space])] = String(line[line.index(after: space)...])
            }
            guard let url = fields["url"], let checked = fields["checked"].flatMap(Double.init) else { return nil }
            self.init(url: url, etag: fields["etag"], lastModified: fields["last-modified"], checked: Date(timeIntervalSince1970: checked))
        }

        var text: String {
            var lines = ["url \(url)"]
            if let etag { lines.append("etag \(etag)") }
            if let lastModified { lines.append("last-modified \(lastModified)") }
            lines.append("checked \(checked.timeIntervalSince1970)")
            return lines.joined(separator: "\n") + "\n"
        }
    }

    enum FetchResult {
        case notModified
        case fetched(Data, etag: String?, lastModified: String?)
    }

    let directory: URL
    let revalidationInterval: TimeInterval
    private let covers = Mutex(Covers())

    /// The covers being fetched and when each was last checked.
    private struct Covers {
        /// Covers being fetched; the group is left when the fetch ends (others waiting for it go on).
        var inFlight: [String: DispatchGroup] = [:]
        /// When each cover was last checked by this instance.
        var checkedThisRun: [String: Date] = [:]
    }

    static let maximumBytes = 32 << 20

    /// Fetches covers over http(s).
    private let client: HTTPClient

    init(directory: URL, revalidationInterval: TimeInterval, client: HTTPClient = .shared) {
        self.directory = directory
        self.revalidationInterval = revalidationInterval
        self.client = client
    }

    /// The cover bytes for `issueID` from `url`: cached, revalidated or fetched as the rules above say, when
    /// `origin` (the issue's feed) may point there; a refused cover is never read, nor taken from the cache.
    func data(issueID: Int64, url: URL, from origin: DocumentOrigin) throws -> Data {
        try origin.check(url)
        let key = "\(issueID)-\(PathComponent.safe(url.lastPathComponent))"
        let lastCheck = takeTurn(key)
        defer { covers.withLock { $0.inFlight.removeValue(forKey: key) }?.leave() }

        let file = directory.appendingPathComponent(key)
        let validatorFile = directory.appendingPathComponent(key + ".validators")
        let cached = FileManager.default.contents(atPath: file.path).flatMap { $0.isEmpty ? nil : $0 }
        let stored = (try? String(contentsOf: validatorFile, encoding: .utf8)).flatMap(Validators.init(text:))
            .flatMap { $0.url == url.absoluteString ? $0 : nil }
        let now = Date()

        if let cached, let lastCheck, now.timeIntervalSince(lastCheck) < revalidationInterval {
            return cached
        }
        let conditional = cached == nil ? nil : stored
        let result: FetchResult
        do {
            result = try Self.fetch(url, from: origin, validators: conditional, client: client)
        } catch {
            guard let cached else { throw error }
            remember(key, now) // offline: use the cached copy, and do not retry on every row redraw
            return cached
        }
        remember(key, now)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        switch result {
        case .notModified:
            guard let cached else { throw FetchError("the server said not modified for a cover that is not cached") }
            var validators = conditional ?? Validators(url: url.absoluteString, etag: nil, lastModified: nil, checked: now)
            validators.checked = now
            try? Data(validators.text.utf8).write(to: validatorFile, options: .atomic)
            return cached
        case .fetched(let data, let etag, let lastModified):
            try? data.write(to: file, options: .atomic)
            let validators = Validators(url: url.absoluteString, etag: etag, lastModified: lastModified, checked: now)
            try? Data(validators.text.utf8).write(to: validatorFile, options: .atomic)
            return data
        }
    }

    /// Waits until no one else fetches the cover `key`, then marks it as the caller's to fetch (the caller takes
    /// its group out of `inFlight` and leaves it when done); returns when the cover was last checked.
    private func takeTurn(_ key: String) -> Date? {
        while true {
            let (other, lastCheck) = covers.withLock { covers -> (DispatchGroup?, Date?) in
                if let other = covers.inFlight[key] { return (other, nil) }
                let mine = DispatchGroup()
                mine.enter()
                covers.inFlight[key] = mine
                return (nil, covers.checkedThisRun[key])
            }
            guard let other else { return lastCheck }
            other.wait()
        }
    }

    private func remember(_ key: String, _ date: Date) {
        covers.withLock { $0.checkedThisRun[key] = date }
    }

    // MARK: Fetching

    /// Fetches `url` when `origin` may point there, conditionally when `validators` are given; over http(s)
    /// through `client`, at most ``maximumBytes`` as received and as decoded, failing after `timeout` seconds
    /// under 1 KB a second (without a byte, or dripping).
    static func fetch(_ url: URL, from origin: DocumentOrigin, validators: Validators?, timeout: TimeInterval = 30,
                      client: HTTPClient = .shared) throws -> FetchResult {
        try origin.check(url)
        switch url.scheme?.lowercased() {
        case "file":
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            let size = attributes?[.size] as? Int
            let modified = (attributes?[.modificationDate] as? Date).map { "\(size ?? -1)@\($0.timeIntervalSince1970)" }
            if let validators, let modified, validators.lastModified == modified { return .notModified }
            let data = try ResourceFetcher.fetch(url, from: origin, maxBytes: maximumBytes, timeout: timeout)
            return .fetched(data, etag: nil, lastModified: modified)
        case "http", "https":
            var headers: [String: String] = [:]
            if let etag = validators?.etag { headers["If-None-Match"] = etag }
            if let lastModified = validators?.lastModified { headers["If-Modified-Since"] = lastModified }
            var limits = HTTPLimits.cover(maxBytes: Int64(maximumBytes))
            limits.lowSpeed = HTTPLimits.LowSpeed(bytesPerSecond: HTTPLimits.minimumRate, seconds: Int(timeout.rounded(.up)))
            limits.connectTimeout = min(limits.connectTimeout, max(timeout, 1))
            limits.deadline = max(limits.deadline ?? 30, timeout)
            let response = try client.fetch(HTTPRequest(url: url, headers: headers, limits: limits))
            if response.status == 304 {
                guard validators != nil else { throw HTTPError.status(response.head) }
                return .notModified
            }
            return .fetched(response.body, etag: response.head.header("ETag"), lastModified: response.head.header("Last-Modified"))
        default:
            throw FetchError("unsupported URL scheme in \(url.absoluteString)")
        }
    }
}

import Foundation
import Synchronization
import NewsstandContent

/// A client of the Google Reader API as FreshRSS, Inoreader, The Old Reader, BazQux and Miniflux serve it, over the
/// program's ``HTTPClient`` (every answer bounded by ``limits``).
///
/// Logging in (`accounts/ClientLogin`) gives the `Auth` token every request carries (`Authorization: GoogleLogin
/// auth=…`); writes also need the short-lived `T` token (`reader/api/0/token`), fetched when first needed and again
/// when a write is refused with 401. Paging through `continuation` is bounded: at most ``maxPages`` pages, and it
/// stops at once when a continuation comes back or a page brings only items already seen.
public final class GoogleReaderClient: FeedServerClient, Sendable {
    public let baseURL: URL
    private let http: HTTPClient
    private let authToken: String
    private let state: Mutex<State>

    /// The settings below (tests change them), the write token and the count of requests.
    private struct State {
        var limits: HTTPLimits
        var maxPages = 200
        var pageSize = 1000
        var idPageSize = 100_000
        var editBatchSize = 250
        var writeToken: String?
        var requests = 0
    }

    /// Each answer's limits: at most 64 MB, a minute, 30 seconds without a byte (tests make them shorter).
    public var limits: HTTPLimits {
        get { state.withLock { $0.limits } }
        set { state.withLock { $0.limits = newValue } }
    }
    /// Pages read at most per listing (items or ids).
    public var maxPages: Int {
        get { state.withLock { $0.maxPages } }
        set { state.withLock { $0.maxPages = newValue } }
    }
    /// Items asked for per page of `stream/contents`.
    public var pageSize: Int {
        get { state.withLock { $0.pageSize } }
        set { state.withLock { $0.pageSize = newValue } }
    }
    /// Ids asked for per page of `stream/items/ids`: one page for 100,000 unread items (about 3 MB), so the unread
    /// list of a large account is one request; servers that give fewer continue the list.
    public var idPageSize: Int {
        get { state.withLock { $0.idPageSize } }
        set { state.withLock { $0.idPageSize = newValue } }
    }
    /// Items put in or out of a state per `edit-tag` request.
    public var editBatchSize: Int {
        get { state.withLock { $0.editBatchSize } }
        set { state.withLock { $0.editBatchSize = newValue } }
    }

    public static let defaultLimits = HTTPLimits(maxBodyBytes: 64 << 20, maxReceivedBytes: 64 << 20, deadline: 60,
                                                 subject: "the server's answer", sizeLimitName: "account answer size limit")

    public init(baseURL: URL, authToken: String, http: HTTPClient = .shared, limits: HTTPLimits = GoogleReaderClient.defaultLimits) {
        self.baseURL = baseURL
        self.authToken = authToken
        self.http = http
        state = Mutex(State(limits: limits))
    }

    public var requestCount: Int { state.withLock { $0.requests } }

    var server: String { baseURL.host.map { host in baseURL.port.map { "\(host):\($0)" } ?? host } ?? baseURL.absoluteString }

    // MARK: Logging in

    /// Logs in with `accounts/ClientLogin` and returns the `Auth` token (a session; the password is not kept).
    public static func logIn(baseURL: URL, user: String, password: String, http: HTTPClient = .shared,
                             limits: HTTPLimits = GoogleReaderClient.defaultLimits) throws -> String {
        let server = GoogleReaderClient(baseURL: baseURL, authToken: "", http: http, limits: limits).server
        var request = HTTPRequest(url: baseURL.appendingPathComponent("accounts/ClientLogin"), method: .post, limits: limits)
        request.body = Data(FormEncoding.encode([("Email", user), ("Passwd", password)]).utf8)
        let response: HTTPResponse
        do {
            response = try http.fetch(request)
        } catch HTTPError.status(let head) where head.status == 401 || head.status == 403 {
            throw AccountError.loginRejected(server: server, user: TextSanitizer.singleLine(user))
        } catch HTTPError.status(let head) where head.status == 404 {
            throw AccountError.notTheAPI(server: server, detail: "404 Not Found")
        } catch HTTPError.status(let head) where (400..<500).contains(head.status) {
            throw AccountError.notTheAPI(server: server, detail: "it answered \(head.status) to a login")
        } catch let error as HTTPError {
            throw AccountError.transfer(error)
        }
        let text = String(decoding: response.body, as: UTF8.self)
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("Auth=") {
            let token = line.dropFirst(5).trimmingCharacters(in: .whitespaces)
            if !token.isEmpty, token.count < 4096, !token.contains(where: { $0.isNewline }) { return token }
        }
        throw AccountError.notTheAPI(server: server, detail: Self.looksLikeHTML(response.body) ? "an HTML page instead of a login" : "no Auth token in the answer")
    }

    // MARK: Reading

    public func subscriptions() throws -> [ServerSubscription] {
        let object = try getJSON("reader/api/0/subscription/list", [("output", "json")])
        guard let list = object["subscriptions"] as? [[String: Any]] else { throw unexpected("no subscriptions list") }
        return list.compactMap { entry in
            guard let id = entry["id"] as? String, let url = (entry["url"] as? String).flatMap(URL.init(string:)),
                  ["http", "https"].contains(url.scheme?.lowercased() ?? "") else { return nil }
            let categories = (entry["categories"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }.map(TextSanitizer.singleLine)
            let title = TextSanitizer.singleLine(entry["title"] as? String ?? "")
            return ServerSubscription(streamID: id, title: title.isEmpty ? (url.host ?? url.absoluteString) : title, feedURL: url, categories: categories)
        }
    }

    public func items(since microseconds: Int64?) throws -> ServerItemBatch {
        var batch = ServerItemBatch()
        var seen = Set<ServerItemID>()
        var continuations = Set<String>()
        var continuation: String?
        for page in 1...max(1, maxPages) {
            // Oldest first (`r=o`): a listing cut short leaves out the newest, which the next sync (`ot` from the newest seen) asks for.
            var query = [("output", "json"), ("n", String(pageSize)), ("r", "o")]
            if let microseconds { query.append(("ot", String(max(0, microseconds / 1_000_000)))) }
            if let continuation { query.append(("c", continuation)) }
            let object = try getJSON("reader/api/0/stream/contents/user/-/state/com.google/reading-list", query) { head in
                if page == 1 { batch.serverTime = head.headers["date"].flatMap(FlexibleDateParser.parse) }
            }
            guard let items = object["items"] as? [[String: Any]] else { throw unexpected("no items list") }
            var fresh = 0
            for entry in items {
                guard let item = Self.item(from: entry), seen.insert(item.id).inserted else { continue }
                fresh += 1
                batch.items.append(item)
            }
            guard let next = object["continuation"] as? String, !next.isEmpty else { return batch }
            if fresh == 0 {
                batch.problems.append("\(server) listed the same items again on page \(page); stopped there")
                return batch
            }
            guard continuations.insert(next).inserted else {
                batch.problems.append("\(server) repeated a continuation after \(page) pages; stopped there")
                return batch
            }
            continuation = next
        }
        batch.problems.append("\(server) had more than \(maxPages) pages of items; the rest waits for the next sync")
        return batch
    }

    public func itemIDs(_ list: ServerItemList) throws -> ServerItemIDs {
        var ids = Set<ServerItemID>()
        var continuations = Set<String>()
        var continuation: String?
        // Unread: the reading list without the read (`xt`), as FreshRSS, Inoreader, The Old Reader and Miniflux all take it.
        let selection: [(String, String)] = switch list {
        case .unread: [("s", "user/-/state/com.google/reading-list"), ("xt", ServerItemState.read.googleReaderStream)]
        case .starred: [("s", ServerItemState.starred.googleReaderStream)]
        }
        for _ in 1...max(1, maxPages) {
            var query = [("output", "json")] + selection + [("n", String(idPageSize))]
            if let continuation { query.append(("c", continuation)) }
            let page = try idPage(query)
            var fresh = 0
            for text in page.ids {
                if let id = ServerItemID(text), ids.insert(id).inserted { fresh += 1 }
            }
            guard let next = page.continuation, !next.isEmpty else { return ServerItemIDs(ids: ids, isComplete: true) }
            guard fresh > 0, continuations.insert(next).inserted else { return ServerItemIDs(ids: ids, isComplete: false) }
            continuation = next
        }
        return ServerItemIDs(ids: ids, isComplete: false)
    }

    /// `reader/api/0/unread-count`: per stream (`feed/…`, labels, the reading list) its unread count and
    /// `newestItemTimestampUsec`. Counts and times come as numbers or strings, as servers write them; an entry without
    /// an id or a count is left out.
    public func unreadCounts() throws -> [ServerUnreadCount]? {
        let object = try getJSON("reader/api/0/unread-count", [("output", "json")])
        guard let list = object["unreadcounts"] as? [[String: Any]] else { throw unexpected("no unread counts") }
        func number(_ value: Any?) -> Int64? {
            if let text = value as? String { return Int64(text) }
            return (value as? NSNumber)?.int64Value
        }
        return list.compactMap { entry in
            guard let id = entry["id"] as? String, let count = number(entry["count"]) else { return nil }
            return ServerUnreadCount(streamID: id, count: count, newestMicroseconds: number(entry["newestItemTimestampUsec"]) ?? 0)
        }
    }

    /// A page of `stream/items/ids`: its ids as written and its continuation. Decoded as a whole (`IDPage`) without a
    /// Foundation object per id; anything else than the usual shape is read as before, for its plain error.
    private func idPage(_ query: [(String, String)]) throws -> (ids: [String], continuation: String?) {
        let body = try getBody("reader/api/0/stream/items/ids", query)
        if let page = try? JSONDecoder().decode(IDPage.self, from: body) { return (page.itemRefs.compactMap(\.id), page.continuation) }
        let object = try jsonObject(body)
        guard let refs = object["itemRefs"] as? [[String: Any]] ?? (object["itemRefs"] == nil || object["itemRefs"] is NSNull ? [] : nil) else {
            throw unexpected("no list of item ids")
        }
        return (refs.compactMap { ($0["id"] as? String) ?? ($0["id"] as? NSNumber)?.stringValue }, object["continuation"] as? String)
    }

    /// The usual answer of `stream/items/ids`: `{"itemRefs": [{"id": "…"}, …], "continuation": "…"}`, an id a string or a number.
    private struct IDPage: Decodable {
        var itemRefs: [Ref]
        var continuation: String?

        struct Ref: Decodable {
            var id: String?

            init(from decoder: Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                id = (try? container.decode(String.self, forKey: .id)) ?? (try? container.decode(Int64.self, forKey: .id)).map(String.init)
                    ?? (try? container.decode(UInt64.self, forKey: .id)).map(String.init)
            }
        }

        enum Keys: String, CodingKey { case itemRefs, continuation, id }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            itemRefs = try container.decodeIfPresent([Ref].self, forKey: .itemRefs) ?? []
            continuation = try? container.decode(String.self, forKey: .continuation)
        }
    }

    // MARK: Writing

    public func set(_ state: ServerItemState, _ adding: Bool, items: [ServerItemID]) throws {
        var start = 0
        while start < items.count {
            let batch = items[start..<min(items.count, start + max(1, editBatchSize))]
            var form = batch.map { ("i", $0.longForm) }
            form.append((adding ? "a" : "r", state.googleReaderStream))
            try post("reader/api/0/edit-tag", form)
            start += batch.count
        }
    }

    public func subscribe(to feedURL: URL) throws -> String {
        let data = try post("reader/api/0/subscription/quickadd", [("quickadd", feedURL.absoluteString)])
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw unexpected("the subscription's answer is not JSON") }
        guard let stream = object["streamId"] as? String, !stream.isEmpty else {
            let message = (object["error"] as? String).map(TextSanitizer.singleLine) ?? "it was not subscribed"
            throw AccountError.unexpectedAnswer(server: server, detail: "\(feedURL.absoluteString): \(message)")
        }
        return stream
    }

    public func unsubscribe(streamID: String) throws {
        try post("reader/api/0/subscription/edit", [("ac", "unsubscribe"), ("s", streamID)])
    }

    public func rename(streamID: String, to title: String) throws {
        try post("reader/api/0/subscription/edit", [("ac", "edit"), ("s", streamID), ("t", title)])
    }

    // MARK: Requests

    private func url(_ path: String, _ query: [(String, String)]) -> URL {
        let base = baseURL.appendingPathComponent(path)
        guard !query.isEmpty else { return base }
        return URL(string: base.absoluteString + "?" + FormEncoding.encode(query)) ?? base
    }

    private func countRequest() { state.withLock { $0.requests += 1 } }

    private func send(_ request: HTTPRequest) throws -> HTTPResponse {
        countRequest()
        var request = request
        request.headers["Authorization"] = "GoogleLogin auth=\(authToken)"
        do {
            return try http.fetch(request)
        } catch let error as HTTPError {
            throw error
        }
    }

    /// A GET answered with a JSON object; `head` sees the answer's head (its `Date`).
    private func getJSON(_ path: String, _ query: [(String, String)], head: (HTTPResponseHead) -> Void = { _ in }) throws -> [String: Any] {
        try jsonObject(try getBody(path, query, head: head))
    }

    /// A GET's body, said plainly when it is an HTML page (not the API).
    private func getBody(_ path: String, _ query: [(String, String)], head: (HTTPResponseHead) -> Void = { _ in }) throws -> Data {
        let response: HTTPResponse
        do {
            response = try send(HTTPRequest(url: url(path, query), limits: limits))
        } catch let error as HTTPError {
            throw translate(error)
        }
        head(response.head)
        if Self.looksLikeHTML(response.body) { throw AccountError.notTheAPI(server: server, detail: "an HTML page instead of JSON") }
        return response.body
    }

    private func jsonObject(_ body: Data) throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw unexpected("not the JSON the API answers with")
        }
        return object
    }

    /// A write with the `T` token, fetched first when there is none, and once more when the write is refused.
    @discardableResult
    private func post(_ path: String, _ form: [(String, String)]) throws -> Data {
        for attempt in 0..<2 {
            let token = try currentWriteToken(renew: attempt > 0)
            var request = HTTPRequest(url: url(path, []), method: .post, limits: limits)
            request.body = Data(FormEncoding.encode(form + [("T", token)]).utf8)
            do {
                let response = try send(request)
                if Self.looksLikeHTML(response.body) { throw AccountError.notTheAPI(server: server, detail: "an HTML page instead of an answer") }
                return response.body
            } catch HTTPError.status(let head) where head.status == 401 && attempt == 0 {
                continue
            } catch let error as HTTPError {
                throw translate(error)
            }
        }
        throw AccountError.sessionExpired(server: server)
    }

    private func currentWriteToken(renew: Bool) throws -> String {
        if !renew, let token = state.withLock({ $0.writeToken }) { return token }
        let response: HTTPResponse
        do {
            response = try send(HTTPRequest(url: url("reader/api/0/token", []), limits: limits))
        } catch let error as HTTPError {
            throw translate(error)
        }
        let token = String(decoding: response.body.prefix(4096), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty, !Self.looksLikeHTML(response.body), !token.contains(where: { $0.isNewline || $0 == "&" }) else {
            throw unexpected("no write token")
        }
        state.withLock { $0.writeToken = token }
        return token
    }

    private func translate(_ error: HTTPError) -> AccountError {
        if case .status(let head) = error {
            if head.status == 401 || head.status == 403 { return .sessionExpired(server: server) }
            if head.status == 404 { return .notTheAPI(server: server, detail: "404 Not Found") }
        }
        return .transfer(error)
    }

    private func unexpected(_ detail: String) -> AccountError { .unexpectedAnswer(server: server, detail: detail) }

    static func looksLikeHTML(_ body: Data) -> Bool {
        let start = String(decoding: body.prefix(512), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return start.hasPrefix("<!doctype") || start.hasPrefix("<html") || start.hasPrefix("<?xml") || start.hasPrefix("<head") || start.hasPrefix("<body")
    }

    // MARK: Items

    /// An item of `stream/contents`; nil without an id or a subscription.
    static func item(from entry: [String: Any]) -> ServerItem? {
        guard let id = (entry["id"] as? String).flatMap(ServerItemID.init),
              let stream = (entry["origin"] as? [String: Any])?["streamId"] as? String else { return nil }
        func href(_ key: String) -> URL? {
            ((entry[key] as? [[String: Any]])?.first?["href"] as? String).flatMap(URL.init(string:))
        }
        let categories = entry["categories"] as? [String] ?? []
        let content = ((entry["content"] as? [String: Any])?["content"] as? String)
            ?? ((entry["summary"] as? [String: Any])?["content"] as? String) ?? ""
        let enclosures: [ServerEnclosure] = (entry["enclosure"] as? [[String: Any]] ?? []).compactMap { enclosure in
            guard let url = (enclosure["href"] as? String).flatMap(URL.init(string:)) else { return nil }
            let length = (enclosure["length"] as? NSNumber)?.int64Value ?? (enclosure["length"] as? String).flatMap { Int64($0) }
            return ServerEnclosure(url: url, type: enclosure["type"] as? String, length: length.flatMap { $0 > 0 ? $0 : nil })
        }
        let published = (entry["published"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) }
        let crawled = (entry["timestampUsec"] as? String).flatMap { Int64($0) }
            ?? (entry["crawlTimeMsec"] as? String).flatMap { Int64($0) }.map { $0 * 1000 }
        return ServerItem(id: id, streamID: stream, title: TextSanitizer.singleLine(entry["title"] as? String ?? ""),
                          link: href("canonical") ?? href("alternate"), published: published, crawledMicroseconds: crawled,
                          content: content, enclosures: enclosures,
                          isRead: categories.contains { $0.hasSuffix("/state/com.google/read") },
                          isStarred: categories.contains { $0.hasSuffix("/state/com.google/starred") })
    }
}

/// `application/x-www-form-urlencoded`, for queries and forms.
enum FormEncoding {
    private static let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

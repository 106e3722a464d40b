import Foundation
import FreshRSSHarness
import LocalHTTPServer
import NewsstandContent
import NewsstandCore

/// Case `accounts` (issue 23): a FreshRSS on 127.0.0.1 (`FreshRSSHarness`: PHP's built-in server with its workers, and
/// SQLite) following 1,000 RSS feeds of 50 items served by `FeedLibraryServer`, and Newsstand syncing the account: the
/// first sync (every item through `stream/contents`), then five unchanged ones (the unread counts showing nothing new:
/// only they and the starred ids asked for, side by side) and five with the hourly full check due (the unread list read,
/// found the one last applied), each with its time, the requests it sent (counted by `GoogleReaderClient`, every request
/// it sends), each request's time, the time while one was under way (FreshRSS answering, the answer read and parsed),
/// and the CPU time of this process and of FreshRSS's. Beside it, in the same run, a direct sync of the same feeds into
/// a library of its own (`SyncService`, as the `sync` case: one conditional request a feed), its unchanged syncs made
/// in turns with the account's. Target: the unchanged account sync within 10 requests and under the direct unchanged
/// sync's time.
///
/// Setting up FreshRSS is not measured but reported: the feeds are imported as OPML with its `cli/import-for-user.php`
/// and fetched by FreshRSS itself with `cli/actualize-user.php` (from the same 127.0.0.1 server). Its tree goes into
/// `/dev/shm` when there is one: its SQLite syncs every feed it writes, which costs minutes on a disk.
struct AccountBenchmark {
    var feedCount = 1_000
    var itemsPerFeed = 50
    static let unchangedRuns = 5
    /// The target: requests of an unchanged account sync at most.
    static let maxUnchangedRequests = 10
    /// FreshRSS's scripts are stopped after this long (the setup is bounded, not measured).
    static let scriptTimeout: TimeInterval = 20 * 60

    /// A Google Reader client that also times its calls (each a request, or a listing of pages): each call's time, and
    /// the time while at least one was under way (calls made side by side overlap; that time is counted once).
    final class TimedClient: FeedServerClient, @unchecked Sendable {
        let client: GoogleReaderClient
        private let lock = NSLock()
        private var active = 0
        private var activeSince: UInt64 = 0
        private var seconds = 0.0
        private var timedCalls: [(name: String, seconds: Double)] = []

        init(_ client: GoogleReaderClient) { self.client = client }

        var requestCount: Int { client.requestCount }
        /// Time while a call was under way: waiting on FreshRSS, and reading and parsing its answers.
        var secondsInCalls: Double { lock.withLock { seconds } }
        /// Each call, in the order they ended.
        var calls: [(name: String, seconds: Double)] { lock.withLock { timedCalls } }

        private func timed<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
            let start = MonotonicClock.now()
            lock.withLock {
                if active == 0 { activeSince = start }
                active += 1
            }
            defer {
                let end = MonotonicClock.now()
                lock.withLock {
                    active -= 1
                    if active == 0 { seconds += MonotonicClock.seconds(from: activeSince, to: end) }
                    timedCalls.append((name, MonotonicClock.seconds(from: start, to: end)))
                }
            }
            return try body()
        }

        func subscriptions() throws -> [ServerSubscription] { try timed("subscription list") { try client.subscriptions() } }
        func items(since microseconds: Int64?) throws -> ServerItemBatch { try timed("items since (ot)") { try client.items(since: microseconds) } }
        func itemIDs(_ list: ServerItemList) throws -> ServerItemIDs { try timed("\(list.rawValue) ids") { try client.itemIDs(list) } }
        func unreadCounts() throws -> [ServerUnreadCount]? { try timed("unread counts") { try client.unreadCounts() } }
        func set(_ state: ServerItemState, _ adding: Bool, items: [ServerItemID]) throws { try timed("edit-tag") { try client.set(state, adding, items: items) } }
        func subscribe(to feedURL: URL) throws -> String { try timed("quickadd") { try client.subscribe(to: feedURL) } }
        func unsubscribe(streamID: String) throws { try timed("unsubscribe") { try client.unsubscribe(streamID: streamID) } }
        func rename(streamID: String, to title: String) throws { try timed("rename") { try client.rename(streamID: streamID, to: title) } }
    }

    /// CPU time of this process so far (every thread: the sync's, the HTTP client's network thread; the feeds' server
    /// in the same process is idle during an account sync), in seconds.
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The folder FreshRSS's tree is copied into: `/dev/shm` (memory) when writable, else the benchmark's folder.
    static func freshRSSScratch(beside folder: URL) throws -> URL {
        let shm = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        if FileManager.default.isWritableFile(atPath: shm.path) {
            let url = shm.appendingPathComponent("newsstand-bench-freshrss-\(getpid())", isDirectory: true)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }
        return folder
    }

    func run() throws {
        let items = feedCount * itemsPerFeed
        var table = ResultTable(title: "Accounts: a FreshRSS on 127.0.0.1 following \(Format.count(feedCount)) feeds × \(itemsPerFeed) items, "
                                    + "vs a direct sync of the same feeds")
        if let reason = FreshRSSServer.unavailableReason {
            table.note("\(reason): no account benchmark (make bench installs PHP)")
            table.print()
            return
        }
        let folder = try TemporaryFolder(prefix: "newsstand-bench-accounts")
        defer { folder.remove() }
        let scratch = try Self.freshRSSScratch(beside: folder.url)
        defer { if scratch != folder.url { try? FileManager.default.removeItem(at: scratch) } }

        let feeds = FeedLibraryServer()
        feeds.server.keepsConnectionsAlive = true
        try feeds.start()
        defer { feeds.stop() }
        let set = feeds.serve(folder: "accounts", feedCount: feedCount, itemsPerFeed: itemsPerFeed)

        // Set-up: FreshRSS started, its own default feed (on the internet) removed, the feeds imported and fetched.
        progress("starting FreshRSS in \(scratch.path) and importing \(Format.count(feedCount)) feeds")
        let (freshRSS, startSeconds) = try MonotonicClock.measure { try FreshRSSServer(in: scratch) }
        defer { freshRSS.stop() }
        let token = try GoogleReaderClient.logIn(baseURL: freshRSS.apiURL, user: freshRSS.user, password: freshRSS.apiPassword)
        let setupClient = GoogleReaderClient(baseURL: freshRSS.apiURL, authToken: token)
        for subscription in try setupClient.subscriptions() where subscription.feedURL.host != "127.0.0.1" {
            try setupClient.unsubscribe(streamID: subscription.streamID)
        }
        let opml = folder.url.appendingPathComponent("feeds.opml")
        try Data(set.opml().utf8).write(to: opml)
        let (_, importSeconds) = try MonotonicClock.measure {
            try freshRSS.runScript("cli/import-for-user.php", ["--user", freshRSS.user, "--filename", opml.path], timeout: Self.scriptTimeout)
        }
        progress("FreshRSS fetching the \(Format.count(feedCount)) feeds (cli/actualize-user.php)")
        let (actualized, actualizeSeconds) = try MonotonicClock.measure {
            try freshRSS.runScript("cli/actualize-user.php", ["--user", freshRSS.user], timeout: Self.scriptTimeout)
        }
        let crawledAt = MonotonicClock.now()
        let said = actualized.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        table.add("set-up (not measured): FreshRSS started", runs: 1, median: Format.duration(startSeconds),
                  notes: "its tree copied into \(scratch.path.hasPrefix("/dev/shm") ? "/dev/shm" : "the temporary folder"), php -S on 127.0.0.1")
        table.add("  feeds imported (cli/import-for-user.php)", runs: 1, median: Format.duration(importSeconds),
                  notes: "\(Format.count(feedCount)) feeds as OPML; FreshRSS reads each feed's title")
        table.add("  feeds fetched (cli/actualize-user.php)", runs: 1, median: Format.duration(actualizeSeconds),
                  notes: TextSanitizer.singleLine(said.trimmingCharacters(in: .whitespaces)))

        // The direct sync: the same feeds, each fetched by Newsstand (as the `sync` case); its unchanged syncs are made
        // between the account's below.
        progress("direct sync of the same feeds, cold")
        let direct = try DirectSyncLibrary(set, under: folder.url.appendingPathComponent("direct"))
        defer { direct.store.close() }
        let directFirst = timedDirectSync(direct, feeds: feeds.server)
        table.add("direct sync, first (cold)", runs: 1, median: Format.duration(directFirst.seconds),
                  notes: "\(Format.count(directFirst.requests)) requests; \(Format.count(try direct.store.issueCounts().values.reduce(0) { $0 + $1.total })) issues stored")

        // The account sync: the same feeds, through FreshRSS.
        progress("account sync, first; then \(Self.unchangedRuns) unchanged ones, each beside an unchanged direct sync")
        let paths = try DirectSyncLibrary.paths(under: folder.url.appendingPathComponent("account"))
        let store = try LibraryStore(file: paths.databaseFile)
        defer { store.close() }
        let account = try store.addAccount(kind: .googleReader, url: freshRSS.apiURL, user: freshRSS.user)
        let apiURL = freshRSS.apiURL
        let clients = ClientLog()
        let sync = AccountSync(store: store) { _ in clients.make(GoogleReaderClient(baseURL: apiURL, authToken: token)) }
        // FreshRSS numbers a crawl's items when it stores them, all within one second; a sync asks for the items of the
        // last `crawlSettlingSeconds` before the server's answer again. As between a server's crawls, the syncs begin
        // once that has passed.
        let settled = sync.crawlSettlingSeconds + 1 - MonotonicClock.seconds(from: crawledAt, to: MonotonicClock.now())
        if settled > 0 {
            progress("waiting \(Format.duration(settled)) for FreshRSS's crawl to be \(Int(sync.crawlSettlingSeconds)) s old")
            Thread.sleep(forTimeInterval: settled)
        }

        let (first, firstSeconds) = MonotonicClock.measure { sync.sync(account) }
        if let problem = first.problem { throw ChildProcess.Failure(description: "the first account sync failed: \(problem)") }
        let firstInCalls = clients.last?.secondsInCalls ?? 0
        let accountIssues = try store.issueCounts().values.reduce(0) { $0 + $1.total }
        if settled > 0 { table.note("The account syncs began \(Int(sync.crawlSettlingSeconds) + 1) s after FreshRSS's crawl (waited \(Format.duration(settled))): a sync asks again for what the server crawled in the \(Int(sync.crawlSettlingSeconds)) s before it answered.") }
        table.add("account sync, first", runs: 1, median: Format.duration(firstSeconds),
                  notes: "\(Format.count(first.requests)) requests; \(Format.count(first.newItems)) of \(Format.count(items)) items, "
                      + "\(Format.count(accountIssues)) issues stored; \(Format.duration(firstInCalls)) in the API's calls")
        var unchangedTimes: [Double] = []
        var inCalls: [Double] = []
        var requests: [Int] = []
        var checks: [AccountSync.ReadCheck] = []
        var skipped: [Bool] = []
        var callTimes: [String: [Double]] = [:]
        var ourCPU: [Double] = []
        var serverCPU: [Double] = []
        var directRuns: [DirectRun] = []
        for run in 0..<Self.unchangedRuns {
            // One of each a round, in turns first, so that both meet the machine as it is then (other work on it
            // changes their times from one second to the next).
            if run % 2 == 0 { directRuns.append(timedDirectSync(direct, feeds: feeds.server)) }
            let current = try store.accounts().first { $0.id == account.id } ?? account
            let (cpuBefore, serverBefore) = (Self.processCPUSeconds(), freshRSS.cpuSeconds)
            let (report, seconds) = MonotonicClock.measure { sync.sync(current) }
            ourCPU.append(Self.processCPUSeconds() - cpuBefore)
            serverCPU.append(freshRSS.cpuSeconds - serverBefore)
            if let problem = report.problem { throw ChildProcess.Failure(description: "an unchanged account sync failed: \(problem)") }
            guard report.newItems == 0 else { throw ChildProcess.Failure(description: "an unchanged account sync brought \(report.newItems) items") }
            unchangedTimes.append(seconds)
            inCalls.append(clients.last?.secondsInCalls ?? 0)
            requests.append(report.requests)
            checks.append(report.readCheck)
            skipped.append(report.subscriptionsAndItemsSkipped)
            for call in clients.last?.calls ?? [] { callTimes[call.name, default: []].append(call.seconds) }
            if run % 2 == 1 { directRuns.append(timedDirectSync(direct, feeds: feeds.server)) }
        }
        let directUnchanged = Statistics(directRuns.map(\.seconds))
        table.add("direct sync, unchanged (conditional GET)", directUnchanged,
                  notes: "\(Format.count(directRuns.last?.requests ?? 0)) requests, \(Format.count(directRuns.last?.notModified ?? 0)) answered 304 Not Modified; "
                      + "each beside an account sync below, in turns first")
        let accountUnchanged = Statistics(unchangedTimes)
        let requestText = Set(requests).count == 1 ? Format.count(requests[0]) : requests.map(Format.count).joined(separator: ", ")
        let asked = skipped.allSatisfy { $0 } ? "the counts showed nothing new: no subscription list, items or unread list"
            : skipped.contains(true) ? "subscriptions and items skipped in \(skipped.filter { $0 }.count) of \(skipped.count)" : "subscriptions and items asked"
        table.add("account sync, unchanged", accountUnchanged,
                  notes: "\(requestText) requests in each; nothing new, read or starred; \(asked); \(Self.describe(checks))")
        let calls = Statistics(inCalls)
        let own = Statistics(zip(unchangedTimes, inCalls).map { $0 - $1 })
        table.add("  in the API's calls", calls, notes: "while a request was under way (side by side: counted once): FreshRSS answering, the answers read and parsed")
        for (name, times) in callTimes.sorted(by: { $0.key < $1.key }) {
            table.add("    \(name)", Statistics(times), notes: "each request's own time (\(times.count) in \(Self.unchangedRuns) syncs)")
        }
        table.add("  in the library", own, notes: "the rest: the account's publications read, their refresh times written, the starred list's digest")
        table.add("  CPU, Newsstand's process", Statistics(ourCPU), notes: "every thread of this process (the sync's, the HTTP client's)")
        table.add("  CPU, FreshRSS (PHP)", Statistics(serverCPU), notes: "php -S and its \(FreshRSSServer.workers) workers, from /proc (10 ms steps)")

        let ratio = accountUnchanged.median / directUnchanged.median
        let fewRequests = requests.allSatisfy { $0 <= Self.maxUnchangedRequests }
        let met = fewRequests && ratio < 1
        table.add("  unchanged: account / direct", runs: nil, median: Format.ratio(ratio),
                  notes: "target ≤ \(Self.maxUnchangedRequests) requests (\(fewRequests ? "met" : "NOT met")) and < 1.00× (\(ratio < 1 ? "met" : "NOT met")): "
                      + (met ? "met" : "NOT met"))
        table.add("  library part / direct", runs: nil, median: Format.ratio(own.median / directUnchanged.median),
                  notes: "Newsstand's own share of the unchanged account sync")

        // The hourly full check (`fullCheckInterval` passed, the clock moved on): the whole unread list read again,
        // found the one last applied, so not compared. After the measured runs, as a clock moved forward stays forward.
        var fullTimes: [Double] = []
        var fullRequests: [Int] = []
        var fullChecks: [AccountSync.ReadCheck] = []
        for run in 1...Self.unchangedRuns {
            var later = sync
            let offset = Double(run) * (sync.fullCheckInterval + 1)
            later.now = { Date().addingTimeInterval(offset) }
            let current = try store.accounts().first { $0.id == account.id } ?? account
            let (report, seconds) = MonotonicClock.measure { later.sync(current) }
            if let problem = report.problem { throw ChildProcess.Failure(description: "an account sync with its full check failed: \(problem)") }
            fullTimes.append(seconds)
            fullRequests.append(report.requests)
            fullChecks.append(report.readCheck)
        }
        let fullText = Set(fullRequests).count == 1 ? Format.count(fullRequests[0]) : fullRequests.map(Format.count).joined(separator: ", ")
        table.add("account sync, unchanged, hourly full check", Statistics(fullTimes),
                  notes: "\(fullText) requests; \(Self.describe(fullChecks)) (at most once an hour)")
        table.print()
    }

    /// How the runs' read states were checked, in words.
    static func describe(_ checks: [AccountSync.ReadCheck]) -> String {
        let words = checks.map { check in
            switch check {
            case .countsUnchanged: "unread counts unchanged, no unread list"
            case .listUnchanged: "unread list read, the one last applied (not compared)"
            case .compared: "unread list read and compared"
            }
        }
        return Set(words).count == 1 ? words[0] : words.joined(separator: " / ")
    }

    /// Hands out the timed clients the account sync asks for, keeping the last.
    final class ClientLog: @unchecked Sendable {
        private let lock = NSLock()
        private var latest: TimedClient?

        func make(_ client: GoogleReaderClient) -> TimedClient {
            let timed = TimedClient(client)
            lock.withLock { latest = timed }
            return timed
        }

        var last: TimedClient? { lock.withLock { latest } }
    }

    /// One sync of the direct library: its time, the feeds' requests (from the server's log) and those answered 304.
    struct DirectRun {
        var seconds: Double
        var requests: Int
        var notModified: Int
    }

    /// A sync of the direct library, as the `sync` case's: the first fetches and stores every feed, the next make one
    /// conditional request a feed.
    private func timedDirectSync(_ library: DirectSyncLibrary, feeds server: LocalHTTPServer) -> DirectRun {
        server.clearLog()
        let (reports, seconds) = MonotonicClock.measure { library.sync.refreshAndQueue(into: library.downloads) }
        return DirectRun(seconds: seconds, requests: server.settledLog().filter { $0.path.hasSuffix(".rss") }.count,
                         notModified: reports.filter(\.outcome.notModified).count)
    }
}

import Foundation
import NewsstandContent

/// Brings an account's subscriptions, items and read states into the library: the server's subscriptions become
/// publications marked as coming from the account, its items issues (those carrying a file Newsstand reads: an
/// EPUB, PDF or comic book enclosure) or headlines (the rest, their text the server's content), and what the server
/// says is read is read here. Asks only for what changed: the unread counts and the starred ids first, side by side;
/// when the counts show nothing new (those of the last full check, no item newer than the last sync, the same feeds),
/// that is all; else the subscriptions and the items since the last sync (`ot`), side by side, and the whole unread
/// list when something changed, or at least every ``fullCheckInterval``. So an unchanged sync costs two requests
/// whatever the number of feeds. Newsstand does not fetch those feeds itself. Blocking: run it off the interface's thread.
public struct AccountSync: Sendable {
    public let store: LibraryStore
    /// Makes the client for an account (its saved session, the program's HTTP client); throws when it has no session.
    public let client: @Sendable (Account) throws -> FeedServerClient
    /// How many headlines a publication keeps (`max-headlines`).
    public var maxHeadlines: Int
    /// How long a server may take to store what it crawled (an item's crawl time is taken before it is written):
    /// the part of the time before its answer that the next sync asks for again (tests shorten it).
    public var crawlSettlingSeconds: TimeInterval = 30
    /// How long an unchanged sync may go on trusting the server's unread counts instead of reading the whole unread
    /// list: a full check at least this often (an item read and another unread in the same feed between two syncs
    /// leave the counts as they were; the next full check sees them).
    public var fullCheckInterval: TimeInterval = 3600
    /// The time now (tests move it).
    public var now: @Sendable () -> Date = { Date() }

    public init(store: LibraryStore, maxHeadlines: Int = Configuration.defaultMaxHeadlines,
                client: @escaping @Sendable (Account) throws -> FeedServerClient) {
        self.store = store
        self.client = client
        self.maxHeadlines = max(0, maxHeadlines)
    }

    /// The usual clients: a Google Reader API client over `http` with the session kept in `sessions`.
    public init(store: LibraryStore, sessions: AccountSessions, http: HTTPClient, maxHeadlines: Int = Configuration.defaultMaxHeadlines) {
        self.init(store: store, maxHeadlines: maxHeadlines) { account in
            guard let token = sessions.token(for: account.url) else {
                throw AccountError.session("no saved session for \(account.url.absoluteString); log in again with newsstand account add")
            }
            switch account.kind {
            case .googleReader: return GoogleReaderClient(baseURL: account.url, authToken: token, http: http)
            }
        }
    }

    /// What one account's sync did.
    public struct Report: Sendable {
        public var account: Account
        /// One per publication of the account, as a feed's refresh reports it (new issues, problems).
        public var outcomes: [(publication: Publication, outcome: PublicationRefresher.Outcome)]
        /// Why the sync failed or what it left out, in plain words; nil when all went well.
        public var problem: String?
        /// Requests made to the server.
        public var requests: Int
        public var subscriptions: Int
        public var newItems: Int
        /// Issues the server said were read that were not read here yet.
        public var markedRead: Int
        /// Marks made here (read, unread) sent to the server.
        public var sentMarks = 0
        /// How the read states were checked: the server's unread counts alone (unchanged since the last full check), the
        /// whole unread list found the same as the one last applied, or the list compared with the library.
        public var readCheck: ReadCheck = .compared
        /// The starred list was the one last applied: not compared with the library.
        public var starredListUnchanged = false
        /// The unread counts showed nothing new (those of the last full check, no item newer than the last sync, the
        /// same feeds): the subscription list and the items were not asked for, only the counts and the starred ids.
        public var subscriptionsAndItemsSkipped = false
    }

    /// How a sync learnt what was read on the server.
    public enum ReadCheck: Sendable, Equatable {
        /// The unread counts were those of the last full check, within ``fullCheckInterval``: the unread list was not read.
        case countsUnchanged
        /// The unread list was read and was the one last applied: nothing to compare.
        case listUnchanged
        /// The unread list was read and compared with the library.
        case compared
    }

    /// Syncs one account. A failure leaves the library as it was and records the reason on the account.
    public func sync(_ account: Account) -> Report {
        var report = Report(account: account, outcomes: [], problem: nil, requests: 0, subscriptions: 0, newItems: 0, markedRead: 0)
        var server: FeedServerClient?
        do {
            let client = try client(account)
            server = client
            try sync(account, with: client, into: &report)
            report.requests = client.requestCount
        } catch {
            report.requests = server?.requestCount ?? 0
            report.problem = "\(error)"
            try? store.recordAccountSyncFailure(id: account.id, error: "\(error)")
        }
        return report
    }

    /// Sends the account's queued marks (read, unread, starred…), grouped into batches; what is sent leaves the queue,
    /// what is not (offline, refused) stays for the next time. Returns how many were sent.
    @discardableResult
    public func sendMarks(of account: Account, with client: FeedServerClient) throws -> Int {
        let marks = try store.pendingMarks(accountID: account.id)
        var sent = 0
        // The server's lists now differ from what the last check saw, in ways the library knows but the counts may not
        // show (a read here, then unread there): the next sync compares the whole lists again.
        defer { if sent > 0 { try? store.recordReadCheck(accountID: account.id, .init()) } }
        for state in ServerItemState.allCases {
            for adding in [true, false] {
                let group = marks.filter { $0.state == state && $0.adding == adding }
                guard !group.isEmpty else { continue }
                try client.set(state, adding, items: group.map(\.item))
                try store.clearSentMarks(group, accountID: account.id)
                sent += group.count
            }
        }
        return sent
    }

    /// Sends the queued marks of one account now, with its own client (`newsstand mark`, the shelf).
    public func sendMarks(of account: Account) throws -> Int {
        try sendMarks(of: account, with: try client(account))
    }

    private func sync(_ account: Account, with client: FeedServerClient, into report: inout Report) throws {
        // What was read here goes first, so the server's lists already know it.
        report.sentMarks = try sendMarks(of: account, with: client)
        // The unread counts after those marks and before anything else (what skipping the rest rests on), and the
        // starred ids (read every time), side by side; meanwhile, what the library holds of the account is read.
        let ((serverCounts, starred), known) = try BothAtOnce.run({ [self] in
            try BothAtOnce.run({ [self] in try unreadCounts(with: client) }, { try client.itemIDs(.starred) })
        }, { try Known(store: store, accountID: account.id) })
        let counts = Self.digest(ofCounts: serverCounts)
        let last = known.check
        let time = now()
        // Due after the interval, or when the clock went back (by more than the rounding of a stored time).
        let due = last.at.map { time.timeIntervalSince($0) >= fullCheckInterval || time.timeIntervalSince($0) < -1 } ?? true
        let ours = known.publications
        var linked: [String: Publication] = [:]
        for publication in ours {
            if let stream = publication.accountStream, linked[stream] == nil { linked[stream] = publication }
        }
        var problems: [String] = []
        var check = last
        let quiet: Bool
        var batch: ServerItemBatch?
        var followedUnchanged: [Publication] = []
        if report.sentMarks == 0, !due, let serverCounts, let counts, counts == last.countsDigest,
           Self.countsShowNothingNew(serverCounts, syncedTo: account.syncedToMicroseconds,
                                     subscribed: Set(linked.values.filter(\.isSubscribed).compactMap(\.accountStream))),
           try store.pendingMarks(accountID: account.id).isEmpty {
            // The counts are those of the last full check, no item is newer than the last sync and they cover exactly the
            // feeds followed here: the subscription list, the items and the unread list would bring nothing.
            report.subscriptionsAndItemsSkipped = true
            report.readCheck = .countsUnchanged
            let followed = ours.filter { $0.isSubscribed && linked[$0.accountStream ?? ""]?.id == $0.id }
            report.subscriptions = followed.count
            report.outcomes = followed.map { ($0, Self.unchangedOutcome(of: $0, issueCounts: known.issueCounts, headlineCounts: known.headlineCounts)) }
            // Their refresh time is written with the account's sync.
            followedUnchanged = followed
            quiet = true
        } else {
            // The subscriptions and the items since the last sync do not depend on each other: asked side by side.
            let (subscriptions, items) = try BothAtOnce.run({ try client.subscriptions() }, { try client.items(since: account.syncedToMicroseconds) })
            batch = items
            let linkedAgain = try follow(subscriptions, linked: linked, of: account, items: items, into: &report)
            problems = items.problems
            // Nothing new here or there since the last full check (same counts, nothing sent, no new item, no publication
            // linked again, within the hour): the library already has what the unread list would say.
            let pending = try store.pendingMarks(accountID: account.id)
            quiet = report.sentMarks == 0 && report.newItems == 0 && !linkedAgain && items.problems.isEmpty && pending.isEmpty
            if quiet, !due, let counts, counts == last.countsDigest {
                report.readCheck = .countsUnchanged
            } else {
                // Every item not unread on the server is read: one list, however many items were read since; read after
                // the items were stored, so an item that arrived meanwhile is in it when unread. A list cut short says
                // nothing of what is missing from it: the states it would change wait, and the report says so.
                let unread = try client.itemIDs(.unread)
                if unread.isComplete {
                    let list = Self.digest(ofIDs: unread.ids)
                    if quiet, let list, list == last.listDigest {
                        report.readCheck = .listUnchanged
                    } else {
                        report.markedRead = try store.markReadFromServer(accountID: account.id, unreadItems: unread.ids)
                    }
                    (check.at, check.countsDigest, check.listDigest) = (time, counts, list)
                } else {
                    (check.at, check.countsDigest, check.listDigest) = (nil, nil, nil)
                    problems.append("the list of unread items was cut short (\(unread.ids.count) read); what was read elsewhere waits for the next sync")
                }
            }
        }

        // The starred list is small, and read every time; when it is the one last applied, nothing is compared. (Read
        // before the items: a new item starred meanwhile is starred by the next sync, its list then different.)
        if starred.isComplete {
            let list = Self.digest(ofIDs: starred.ids)
            if quiet, let list, list == last.starredDigest {
                report.starredListUnchanged = true
            } else {
                try store.applyStarredFromServer(accountID: account.id, starredItems: starred.ids)
            }
            check.starredDigest = list
        } else {
            check.starredDigest = nil
            problems.append("the list of starred items was cut short (\(starred.ids.count) read); stars wait for the next sync")
        }
        if check != last { try store.recordReadCheck(accountID: account.id, check) }

        // Items come oldest first, so when paging stopped early, the newest one seen is where the next sync goes on from.
        let newest = batch?.items.compactMap(\.crawledMicroseconds).max()
        // What the server had crawled a while before it answered is all in a complete batch: the next sync asks from
        // there, so the items of the newest one's second (`ot` counts seconds) do not come again every time.
        let settled = batch.flatMap { batch in
            batch.problems.isEmpty ? batch.serverTime.map { Int64(($0.timeIntervalSince1970 - crawlSettlingSeconds) * 1_000_000) } : nil
        }
        let syncedTo = [newest, account.syncedToMicroseconds, settled].compactMap { $0 }.max()
        let problem = problems.isEmpty ? nil : problems.joined(separator: "; ")
        report.problem = problem
        if report.subscriptionsAndItemsSkipped, problem == nil {
            // Nothing new, nothing wrong: only times to write, in one transaction.
            try store.recordUnchangedAccountSync(id: account.id, refreshing: followedUnchanged.map(\.id))
        } else {
            _ = try recordUnchanged(followedUnchanged)
            try store.recordAccountSync(id: account.id, syncedTo: syncedTo, error: problem)
        }
    }

    /// What the library holds of an account that a sync compares the server's answers with, read while they arrive:
    /// its last full check, its publications, and the counts an unchanged publication reports.
    private struct Known: Sendable {
        var check: LibraryStore.AccountReadCheck
        var publications: [Publication]
        var issueCounts: [Int64: IssueCounts]
        var headlineCounts: [Int64: Int]

        init(store: LibraryStore, accountID: Int64) throws {
            check = try store.readCheck(accountID: accountID)
            publications = try store.publications(accountID: accountID)
            issueCounts = try store.issueCounts()
            headlineCounts = try store.headlineCounts()
        }
    }

    /// The outcome of a publication that brought nothing new, with the counts it has.
    private static func unchangedOutcome(of publication: Publication, issueCounts: [Int64: IssueCounts],
                                         headlineCounts: [Int64: Int]) -> PublicationRefresher.Outcome {
        PublicationRefresher.Outcome(publicationID: publication.id, issueCount: issueCounts[publication.id]?.total ?? 0, newIssueNames: [],
                                     problem: nil, notModified: true, headlineCount: headlineCounts[publication.id] ?? 0)
    }

    /// Brings the server's subscriptions into the library (new or changed ones linked, ones gone unsubscribed) and the
    /// items of the batch into their publications; whether a publication was linked again (new or changed).
    private func follow(_ subscriptions: [ServerSubscription], linked: [String: Publication], of account: Account, items batch: ServerItemBatch,
                        into report: inout Report) throws -> Bool {
        report.subscriptions = subscriptions.count
        // Only a subscription that is new or changed (title, subscribed again) writes to the library, so an unchanged
        // list costs no write.
        var publications: [String: Publication] = [:]
        var linkedAgain = false
        for subscription in subscriptions {
            if let publication = linked[subscription.streamID], publication.isSubscribed,
               publication.title == TextSanitizer.singleLine(subscription.title) {
                publications[subscription.streamID] = publication
            } else {
                publications[subscription.streamID] = try store.linkPublication(accountID: account.id, subscription: subscription)
                linkedAgain = true
            }
        }
        // Unsubscribed on the server (from another reader): unsubscribed here, downloads kept.
        for publication in linked.values where publication.isSubscribed {
            if publications[publication.accountStream ?? ""] == nil {
                try store.unsubscribeKeepingDownloads(publicationID: publication.id)
            }
        }
        let isFirstSync = account.syncedToMicroseconds == nil
        var byStream: [String: [ServerItem]] = [:]
        // `ot` counts in whole seconds: items of the last synced second come again, and are known already.
        let known = account.syncedToMicroseconds ?? Int64.min
        for item in batch.items where publications[item.streamID] != nil && (item.crawledMicroseconds ?? Int64.max) > known {
            byStream[item.streamID, default: []].append(item)
        }
        report.newItems = byStream.values.reduce(0) { $0 + $1.count }
        var outcomes: [Int64: PublicationRefresher.Outcome] = [:]
        var unchanged: [Publication] = []
        for subscription in subscriptions {
            guard let publication = publications[subscription.streamID] else { continue }
            if let items = byStream[subscription.streamID], !items.isEmpty {
                outcomes[publication.id] = try apply(items, to: publication, markingNewArrivals: !isFirstSync)
            } else {
                unchanged.append(publication)
            }
        }
        outcomes.merge(try recordUnchanged(unchanged)) { new, _ in new }
        for subscription in subscriptions {
            if let publication = publications[subscription.streamID], let outcome = outcomes[publication.id] {
                report.outcomes.append((publication, outcome))
            }
        }
        return linkedAgain
    }

    /// Records the refresh of publications that brought nothing new; their outcomes, with the counts they have (read
    /// for all at once).
    private func recordUnchanged(_ publications: [Publication]) throws -> [Int64: PublicationRefresher.Outcome] {
        guard !publications.isEmpty else { return [:] }
        let issueCounts = try store.issueCounts()
        let headlineCounts = try store.headlineCounts()
        let date = Date()
        try store.recordUnchangedRefreshes(publications.map { ($0.id, date) })
        return Dictionary(publications.map { ($0.id, Self.unchangedOutcome(of: $0, issueCounts: issueCounts, headlineCounts: headlineCounts)) }) { first, _ in first }
    }

    /// Whether the server's unread counts show that nothing arrived since the account was synced to `syncedTo` and that
    /// it follows the feeds subscribed to here: no stream's newest item (its crawl time) later than that, and a count
    /// for exactly the `subscribed` feeds (one subscribed or unsubscribed elsewhere, or here, changes them). Without a
    /// newest time (0: a server that does not say) or a sync before, they show nothing.
    static func countsShowNothingNew(_ counts: [ServerUnreadCount], syncedTo: Int64?, subscribed: Set<String>) -> Bool {
        guard let syncedTo, let newest = counts.map(\.newestMicroseconds).max(), newest > 0, newest <= syncedTo else { return false }
        return Set(counts.map(\.streamID).filter { $0.hasPrefix("feed/") }) == subscribed
    }

    /// The server's unread counts; nil when it does not serve them (not found, not the shape the API gives): its
    /// unread list is then read every time. Other failures fail the sync, as any request's.
    private func unreadCounts(with client: FeedServerClient) throws -> [ServerUnreadCount]? {
        do {
            return try client.unreadCounts()
        } catch AccountError.notTheAPI, AccountError.unexpectedAnswer {
            return nil
        }
    }

    /// A digest of the server's unread counts, in the order of their streams; nil when the server gave none.
    static func digest(ofCounts counts: [ServerUnreadCount]?) -> String? {
        guard let counts else { return nil }
        var text = ""
        for count in counts.sorted(by: { $0.streamID < $1.streamID }) {
            text += "\(count.streamID)\u{1F}\(count.count)\u{1F}\(count.newestMicroseconds)\n"
        }
        return sha256(Data(text.utf8))
    }

    /// A digest of an unread list, whatever the order the server gave it in.
    static func digest(ofIDs ids: Set<ServerItemID>) -> String? {
        var values = ids.map(\.value)
        values.sort()
        return sha256(values.withUnsafeBytes { Data($0) })
    }

    /// SHA-256 in hex; nil when libcrypto cannot be opened (then nothing is skipped).
    private static func sha256(_ data: Data) -> String? {
        guard let digest = try? SHA256Digest() else { return nil }
        digest.update(data)
        return digest.finalizeHex()
    }

    /// Stores a publication's new items: issues upserted by the item's long id, headlines put before the ones kept.
    private func apply(_ items: [ServerItem], to publication: Publication, markingNewArrivals: Bool) throws -> PublicationRefresher.Outcome {
        var entries: [CatalogEntry] = []
        var headlines: [Headline] = []
        for item in items.sorted(by: { ($0.published ?? .distantPast) > ($1.published ?? .distantPast) }) {
            let summary = FeedText.html(item.content)
            let date = item.published ?? item.crawledMicroseconds.map { Date(timeIntervalSince1970: Double($0) / 1_000_000) } ?? Date()
            let readable = item.enclosures.filter { ContentKind.of(type: $0.type, link: $0.url.absoluteString) == .readable
                && ["http", "https"].contains($0.url.scheme?.lowercased() ?? "") }
            if !readable.isEmpty {
                var entry = CatalogEntry(name: item.id.longForm, title: item.title.isEmpty ? summary.prefix(80).description : item.title,
                                         date: date, summary: summary, contentURLs: readable.map(\.url),
                                         contentTypes: readable.allSatisfy { $0.type != nil } ? readable.compactMap(\.type) : [])
                if readable.contains(where: { $0.length != nil }) { entry.contentLengths = readable.map(\.length) }
                entries.append(entry)
            } else {
                let media = item.enclosures.first { ContentKind.of(type: $0.type, link: $0.url.absoluteString).isOther }
                headlines.append(Headline(title: item.title.isEmpty ? (item.link?.absoluteString ?? String(summary.prefix(80))) : item.title,
                                          link: item.link, date: date, summary: summary, mediaURL: media?.url,
                                          mediaKind: media.map { ContentKind.of(type: $0.type, link: $0.url.absoluteString) }.flatMap {
                                              if case .other(let description) = $0 { description } else { nil } },
                                          body: item.content, serverItem: item.id))
                headlines[headlines.count - 1].isRead = item.isRead
                headlines[headlines.count - 1].isStarred = item.isStarred
            }
        }
        let known = Set(try store.issues(publicationID: publication.id).map(\.name))
        let issues = try store.upsertIssues(entries, publicationID: publication.id, markingNewArrivals: markingNewArrivals)
        var headlineCount = try store.headlineCount(publicationID: publication.id)
        if !headlines.isEmpty {
            // The same item again (a sync that stopped before recording how far it got) replaces the one kept.
            func key(_ headline: Headline) -> String {
                headline.link?.absoluteString ?? "\(headline.title)\u{1F}\(headline.date?.timeIntervalSince1970 ?? 0)"
            }
            let arriving = Set(headlines.map(key))
            let kept = try store.headlinesWithBodies(publicationID: publication.id).filter { !arriving.contains(key($0)) }
            let merged = Array((headlines + kept).prefix(maxHeadlines))
            try store.replaceHeadlines(merged, publicationID: publication.id, markingNewArrivals: markingNewArrivals)
            headlineCount = try store.headlineCount(publicationID: publication.id)
        }
        try store.recordRefresh(publicationID: publication.id, title: nil, error: nil)
        return PublicationRefresher.Outcome(publicationID: publication.id, issueCount: issues.count,
                                            newIssueNames: entries.map(\.name).filter { !known.contains($0) }, problem: nil,
                                            notModified: false, headlineCount: headlineCount)
    }
}

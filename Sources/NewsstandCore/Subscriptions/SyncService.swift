import Foundation
import Synchronization

/// Brings every subscription up to date: refreshes catalogs, queues downloads under each
/// publication's policy, and removes issues beyond keep-newest-N or the storage budget.
///
/// Used by `newsstand sync` and by the TUI's refreshes; blocking, so run it off the UI thread.
public struct SyncService: Sendable {
    public let store: LibraryStore
    public let paths: LibraryPaths
    public let limits: AutoDownloadLimits
    /// The time now (tests set it).
    let now: @Sendable () -> Date
    /// Refreshes one publication's catalog, an unchanged one's time into the batch when given (tests stand in for the network).
    let refresh: @Sendable (Publication, UnchangedRefreshBatch?) -> PublicationRefresher.Outcome
    /// How many catalogs are fetched at once in a full sync.
    public static let concurrentRefreshes = 8
    /// Syncs the accounts on feed servers, whose publications it brings up to date instead of their feeds (nil: none).
    public var accountSync: AccountSync?
    /// Fetches the whole articles of feeds set to `full-text always` (nil: none are fetched).
    public var articles: HeadlineArticleFetcher?
    /// The `full-text` of feeds without their own (the config's).
    public var fullTextDefault: FullTextMode = .ask

    /// `accountSessions`: where accounts' sessions are kept; with it, a sync syncs the accounts too.
    public init(store: LibraryStore, paths: LibraryPaths, limits: AutoDownloadLimits = AutoDownloadLimits(), client: HTTPClient = .shared,
                maxCatalogEntries: Int = PublicationRefresher.defaultMaxEntries, maxHeadlines: Int = Configuration.defaultMaxHeadlines,
                accountSessions: AccountSessions? = nil, fullText: FullTextMode = .ask) {
        self.init(store: store, paths: paths, limits: limits, now: { Date() },
                  refresh: { PublicationRefresher(store: store, maxEntries: maxCatalogEntries, client: client, maxHeadlines: maxHeadlines)
                      .refresh($0, savingUnchangedIn: $1) })
        accountSync = accountSessions.map { AccountSync(store: store, sessions: $0, http: client, maxHeadlines: maxHeadlines) }
        articles = HeadlineArticleFetcher(store: store, client: client)
        fullTextDefault = fullText
    }

    init(store: LibraryStore, paths: LibraryPaths, limits: AutoDownloadLimits, now: @escaping @Sendable () -> Date,
         refresh: (@Sendable (Publication, UnchangedRefreshBatch?) -> PublicationRefresher.Outcome)? = nil) {
        self.store = store
        self.paths = paths
        self.limits = limits
        self.now = now
        self.refresh = refresh ?? { PublicationRefresher(store: store).refresh($0, savingUnchangedIn: $1) }
    }

    /// What one publication's refresh brought and what it set going.
    public struct PublicationReport: Sendable, Equatable {
        public var publication: Publication
        public var outcome: PublicationRefresher.Outcome
        public var queued: [Issue]
        /// Issues the policy wanted but the limits held back (they download at a later sync), and why.
        public var held: [Issue] = []
        public var heldReason: String?
        /// Whole articles fetched and kept for its headlines (`full-text always`).
        public var articlesFetched = 0
    }

    /// Refreshes every subscribed publication and queues the downloads their policies ask for. Catalogs are
    /// fetched `concurrentRefreshes` at a time and each is parsed and stored as it arrives; what to download is
    /// then decided one publication at a time (the daily cap counts across them). Reports come in library order.
    ///
    /// Feeds that answer 304 Not Modified have only their refresh time to save; those are saved in batches
    /// (``UnchangedRefreshBatch``), all of them by the time this returns (a report's `publication` may still show
    /// the previous time).
    public func refreshAndQueue(into downloads: DownloadQueue) -> [PublicationReport] {
        syncAndQueue(into: downloads).publications
    }

    /// What a whole sync did: each account's sync, then every publication's report (the accounts' first).
    public struct Summary: Sendable {
        public var accounts: [AccountSync.Report]
        public var publications: [PublicationReport]
    }

    /// Syncs every account (``accountSync``), then refreshes every subscribed feed of one's own; queues the downloads
    /// the policies ask for. A publication that comes from an account is never fetched here: its server fetches it.
    public func syncAndQueue(into downloads: DownloadQueue) -> Summary {
        var accountReports: [AccountSync.Report] = []
        var fromAccounts: [PublicationReport] = []
        if let accountSync {
            for account in (try? store.accounts()) ?? [] {
                let report = accountSync.sync(account)
                accountReports.append(report)
                for (publication, outcome) in report.outcomes {
                    var queued = queue(outcome, for: publication, into: downloads)
                    queued.articlesFetched = fetchArticles(of: publication)
                    fromAccounts.append(queued)
                }
            }
        }
        let publications = ((try? store.publications()) ?? []).filter { $0.isSubscribed && $0.accountID == nil }
        let reports = ReportSlots(count: publications.count)
        let unchanged = UnchangedRefreshBatch(store: store)
        let done = DispatchGroup()
        // Threads of their own: fetches block, and Dispatch's global queues add threads for blocked work only slowly.
        for _ in 0..<min(Self.concurrentRefreshes, publications.count) {
            done.enter()
            let worker = Thread {
                while let index = reports.nextIndex() {
                    let outcome = refresh(publications[index], unchanged)
                    let fetched = fetchArticles(of: publications[index])
                    reports.planning {
                        var report = queue(outcome, for: publications[index], into: downloads)
                        report.articlesFetched = fetched
                        reports.set(index, report)
                    }
                }
                done.leave()
            }
            // Background work: the interface (and whoever else uses the machine) comes first.
            worker.qualityOfService = .utility
            worker.start()
        }
        done.wait()
        unchanged.save()
        return Summary(accounts: accountReports, publications: fromAccounts + reports.all)
    }

    /// Refreshes one publication and queues what its policy asks for. One that comes from an account is brought up to
    /// date by syncing its account (what the server has), never by fetching its feed.
    public func refreshAndQueue(_ publication: Publication, into downloads: DownloadQueue) -> PublicationReport {
        if let accountID = publication.accountID {
            guard let accountSync, let account = ((try? store.accounts()) ?? []).first(where: { $0.id == accountID }) else {
                let outcome = PublicationRefresher.Outcome(publicationID: publication.id, issueCount: 0, newIssueNames: [],
                                                           problem: "\(publication.title): its account is synced by newsstand sync")
                return PublicationReport(publication: publication, outcome: outcome, queued: [])
            }
            let report = accountSync.sync(account)
            var mine: PublicationReport?
            for (other, outcome) in report.outcomes {
                let queued = queue(outcome, for: other, into: downloads)
                if other.id == publication.id {
                    mine = queued
                    mine?.articlesFetched = fetchArticles(of: other)
                }
            }
            let outcome = PublicationRefresher.Outcome(publicationID: publication.id, issueCount: 0, newIssueNames: [],
                                                       problem: "\(publication.title): \(report.problem ?? "not among the account's subscriptions")")
            return mine ?? PublicationReport(publication: publication, outcome: outcome, queued: [])
        }
        var report = queue(refresh(publication, nil), for: publication, into: downloads)
        report.articlesFetched = fetchArticles(of: publication)
        return report
    }

    /// Fetches the whole articles a publication's `full-text always` asks for (in the calling worker, so within the
    /// sync's concurrency); 0 for any other setting.
    private func fetchArticles(of publication: Publication) -> Int {
        articles?.fetchMissing(of: publication, mode: publication.fullText ?? fullTextDefault) ?? 0
    }

    /// Decides what a refreshed publication's policy and the limits let download now, and queues it.
    private func queue(_ outcome: PublicationRefresher.Outcome, for publication: Publication, into downloads: DownloadQueue) -> PublicationReport {
        let current = (try? store.publication(id: publication.id)) ?? publication
        // Only a policy that downloads needs the issues (with .latest, only the newest).
        let issues: [Issue] = switch current.autoDownload {
        case .none: []
        case .latest: (try? store.issues(publicationID: publication.id, after: nil, limit: 1)) ?? []
        case .all: (try? store.issues(publicationID: publication.id)) ?? []
        }
        let wanted = SyncPlanner.issuesToDownload(for: current, issues: issues, arrived: Set(outcome.newIssueNames))
        // Nothing wanted (most publications, most syncs): no limits to apply, no day's count to read.
        guard !wanted.isEmpty else { return PublicationReport(publication: current, outcome: outcome, queued: []) }
        let date = now()
        let components = Calendar.current.dateComponents([.hour, .minute], from: date)
        let day = Self.dayStamp(date)
        let counter = (try? store.setting(Self.startedTodaySetting))?.flatMap { $0 }?.split(separator: " ")
        let startedToday = counter.flatMap { $0.count == 2 && $0[0] == day ? Int($0[1]) : nil } ?? 0
        let (allowed, held, reason) = limits.apply(to: wanted, minuteOfDay: (components.hour ?? 0) * 60 + (components.minute ?? 0),
                                                   startedToday: startedToday)
        if !allowed.isEmpty { try? store.setSetting(Self.startedTodaySetting, to: "\(day) \(startedToday + allowed.count)") }
        allowed.forEach { downloads.enqueue(issueID: $0.id) }
        return PublicationReport(publication: current, outcome: outcome, queued: allowed, held: held, heldReason: reason)
    }

    /// The library setting counting today's automatic downloads: "yyyy-MM-dd N".
    static let startedTodaySetting = "auto_downloads_started"

    static func dayStamp(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// Removes downloaded issues beyond each publication's keep-newest-N and then, oldest read first,
    /// until the library fits `budget` (when given). Returns what was removed.
    @discardableResult
    public func enforceLimits(budget: Int64?) -> [Issue] {
        let storage = IssueStorage(store: store, paths: paths)
        let reading = try? store.currentlyReadingIssueID()
        let publications = Dictionary(uniqueKeysWithValues: ((try? store.publications()) ?? []).map { ($0.id, $0) })
        var removed: [Issue] = []
        // Starred issues (here or on an account's server) are kept whatever the limits.
        let starred = (try? store.starredIssueIDs()) ?? []
        for publication in publications.values {
            let issues = ((try? store.issues(publicationID: publication.id)) ?? []).filter { !starred.contains($0.id) }
            for issue in SyncPlanner.issuesBeyondKeepLimit(for: publication, issues: issues, readingIssueID: reading ?? nil) {
                if (try? storage.evict(issue, of: publication)) != nil { removed.append(issue) }
            }
        }
        if let budget {
            for issue in plannedEvictions(budget: budget) {
                if let publication = publications[issue.publicationID], (try? storage.evict(issue, of: publication)) != nil { removed.append(issue) }
            }
        }
        return removed
    }

    /// What keeping to `budget` would remove now, without removing anything (the storage view shows it).
    public func plannedEvictions(budget: Int64) -> [Issue] {
        let storage = IssueStorage(store: store, paths: paths)
        let publications = Dictionary(uniqueKeysWithValues: ((try? store.publications()) ?? []).map { ($0.id, $0) })
        // What the planner needs, from SQL: the downloaded issues, and each publication's newest (which it keeps).
        let starred = (try? store.starredIssueIDs()) ?? []
        let downloaded = ((try? store.downloadedIssues()) ?? []).filter { !starred.contains($0.id) }
        let newest = ((try? store.newestIssues()) ?? []).filter { $0.state != .available }
        let issues = downloaded + newest
        var sizes: [Int64: Int64] = [:]
        for issue in issues where issue.state == .available {
            if let publication = publications[issue.publicationID] { sizes[issue.id] = storage.size(of: issue, in: publication) }
        }
        // Whole articles kept with headlines take their share of the budget first (they go with their headlines).
        let articleBytes = ((try? store.headlineArticleUsage()) ?? [:]).values.reduce(Int64(0)) { $0 + $1.bytes }
        return SyncPlanner.issuesOverBudget(issues, sizes: sizes, budget: max(0, budget - articleBytes),
                                            readingIssueID: (try? store.currentlyReadingIssueID()) ?? nil)
    }
}

/// The work of a concurrent sync: which publication is next, the reports by index, and the lock that
/// makes planning run one publication at a time.
private final class ReportSlots: Sendable {
    private struct Slots {
        var reports: [SyncService.PublicationReport?]
        var next = 0
    }

    private let slots: Mutex<Slots>
    private let planningTurn = Mutex(())

    init(count: Int) { slots = Mutex(Slots(reports: Array(repeating: nil, count: count))) }

    /// The next publication to refresh, or nil when every one has been handed out.
    func nextIndex() -> Int? {
        slots.withLock { slots in
            guard slots.next < slots.reports.count else { return nil }
            defer { slots.next += 1 }
            return slots.next
        }
    }

    func planning(_ body: () -> Void) { planningTurn.withLock { _ in body() } }

    func set(_ index: Int, _ report: SyncService.PublicationReport) { slots.withLock { $0.reports[index] = report } }

    var all: [SyncService.PublicationReport] { slots.withLock { $0.reports.compactMap { $0 } } }
}

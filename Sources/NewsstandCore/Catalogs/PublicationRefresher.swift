import Foundation

/// Fetches publications' feeds (any format `FeedParser` reads) and brings their issues and
/// headlines into the library.
///
/// Blocking: run it on a background queue. A feed that fails leaves that publication's issues,
/// headlines and title as they were and records the reason; other publications are unaffected.
/// Refreshes are conditional (`If-None-Match` / `If-Modified-Since` with the validators of the last
/// good fetch), and paginated feeds are followed through `rel="next"` for at most `maxPages` pages.
public struct PublicationRefresher: Sendable {
    public let store: LibraryStore
    /// How many pages of a paginated feed are read, the first included.
    public var maxPages: Int
    /// The most entries one refresh stores: the newest, whatever the feed's order (`max-catalog-entries`).
    /// Pages stop being read once this many are in hand.
    public var maxEntries: Int
    /// The HTTP client feeds are fetched with (and the logins it knows).
    public let client: HTTPClient
    /// How many headlines a publication keeps: the feed's first (`max-headlines`).
    public var maxHeadlines: Int
    /// How long a feed page may arrive at less than ``HTTPLimits/minimumRate`` (1 KB a second) — a server that stops
    /// sending, or drips — before the refresh gives up on it: 30 seconds (tests make it shorter).
    public var feedTimeout: TimeInterval = 30

    /// `maxEntries` unless configured: ten pages of a hundred.
    public static let defaultMaxEntries = 1000

    public init(store: LibraryStore, maxPages: Int = 10, maxEntries: Int = PublicationRefresher.defaultMaxEntries, client: HTTPClient = .shared,
                maxHeadlines: Int = Configuration.defaultMaxHeadlines) {
        self.store = store
        self.maxPages = max(1, maxPages)
        self.maxEntries = max(1, maxEntries)
        self.client = client
        self.maxHeadlines = max(0, maxHeadlines)
    }

    /// What one refresh did.
    public struct Outcome: Sendable, Equatable {
        public var publicationID: Int64
        public var issueCount: Int
        public var newIssueNames: [String]
        /// Problems in plain words: the whole feed failed, or some entries were skipped.
        public var problem: String?
        /// The server said the feed had not changed (HTTP 304): nothing was parsed or written.
        public var notModified: Bool
        /// How many headlines (items without downloadable content) the feed has now.
        public var headlineCount: Int
        /// The feed's server asked for a login that no saved one answered: the host (`CredentialHost` text) and realm.
        public var loginRequired: LoginChallenge?

        public init(publicationID: Int64, issueCount: Int, newIssueNames: [String], problem: String?) {
            self.init(publicationID: publicationID, issueCount: issueCount, newIssueNames: newIssueNames, problem: problem,
                      notModified: false, headlineCount: 0)
        }

        public init(publicationID: Int64, issueCount: Int, newIssueNames: [String], problem: String?,
                    notModified: Bool, headlineCount: Int) {
            self.publicationID = publicationID
            self.issueCount = issueCount
            self.newIssueNames = newIssueNames
            self.problem = problem
            self.notModified = notModified
            self.headlineCount = headlineCount
        }
    }

    /// Fetches and validates a feed, then subscribes to it. Nothing is saved when the feed is unusable.
    ///
    /// A catalog root (an OPDS navigation feed with no issues of its own) is followed, up to three levels,
    /// to the feed `CatalogShelfChooser` picks; the publication keeps the root's title, reads the chosen
    /// feed, and records both (`Publication.catalogRoot`, `catalogFeedTitle`).
    public func subscribe(to url: URL, title: String? = nil) throws -> Publication {
        let origin = DocumentOrigin(documentURL: url)
        guard var (feed, validators) = try fetch(url, from: origin, validators: nil) else { throw CatalogError("the feed could not be fetched") }
        let rootTitle = feed.title
        var feedURL = url
        var chosen: [String] = []
        var visited: Set<URL> = [url]
        levels: while CatalogShelfChooser.isNavigation(feed), chosen.count < 3 {
            // Up to four candidates a level: the first with issues is the shelf; else the first that read is
            // followed further down.
            var deeper: (link: NavigationLink, feed: Feed, validators: FetchValidators?)?
            for link in CatalogShelfChooser.candidates(in: feed.navigation).prefix(4) where visited.insert(link.url).inserted {
                guard let next = try? fetch(link.url, from: origin, validators: nil) else { continue }
                if !CatalogShelfChooser.isNavigation(next.0) {
                    (feed, validators, feedURL) = (next.0, next.1, link.url)
                    chosen.append(link.title)
                    break levels
                }
                if deeper == nil { deeper = (link, next.0, next.1) }
            }
            guard let deeper else { break }
            (feed, validators, feedURL) = (deeper.feed, deeper.validators, deeper.link.url)
            chosen.append(deeper.link.title)
        }
        let publication = try store.addPublication(title: title ?? rootTitle ?? feed.title ?? Self.fallbackTitle(for: url), feedURL: feedURL)
        if !chosen.isEmpty {
            try store.setCatalogFeed(publicationID: publication.id, root: url, feedURL: feedURL, feedTitle: chosen.joined(separator: " › "))
        }
        let current = try store.publication(id: publication.id) ?? publication
        try apply(feed, validators: validators, to: current, markingNewArrivals: false)
        return try store.publication(id: publication.id) ?? publication
    }

    /// Points a publication at another feed of its catalog (a series, an author, a sort order) and refreshes it
    /// from there. Issues not downloaded that the new feed does not list go; downloaded ones stay.
    @discardableResult
    public func switchFeed(of publication: Publication, to url: URL, title: String) throws -> Outcome {
        guard let (feed, validators) = try fetch(url, from: DocumentOrigin(of: publication), validators: nil) else { throw CatalogError("the feed could not be fetched") }
        try store.setCatalogFeed(publicationID: publication.id, root: publication.catalogRoot ?? publication.feedURL, feedURL: url, feedTitle: title)
        let listed = Set(feed.entries.map(\.name))
        try store.removeUndownloadedIssues(publicationID: publication.id, except: listed)
        let current = try store.publication(id: publication.id) ?? publication
        return try apply(feed, validators: validators, to: current, markingNewArrivals: false)
    }

    /// Fetches a feed and its following pages (at most `maxPages`), merged, without touching the library:
    /// for a browser view of OPDS catalogs. `Feed.nextPage` is set when pages were left unread. `origin` is
    /// the catalog's the browser started from (by default the feed's own).
    public func loadFeed(at url: URL, from origin: DocumentOrigin? = nil) throws -> Feed {
        guard let (feed, _) = try fetch(url, from: origin ?? DocumentOrigin(documentURL: url), validators: nil) else { throw CatalogError("the feed could not be fetched") }
        return feed
    }

    /// Refreshes one publication. When its feed is unchanged (304), only the refresh time is written: at once, or
    /// with `unchangedRefreshes` into that batch, saved with others' (a sync of many feeds passes one).
    @discardableResult
    public func refresh(_ publication: Publication, savingUnchangedIn unchangedRefreshes: UnchangedRefreshBatch? = nil) -> Outcome {
        do {
            let validators = try store.feedValidators(publicationID: publication.id)
            guard let (feed, newValidators) = try fetch(publication.feedURL, from: DocumentOrigin(of: publication), validators: validators) else {
                if let unchangedRefreshes {
                    unchangedRefreshes.add(publicationID: publication.id)
                } else {
                    try store.recordUnchangedRefreshes([(publication.id, Date())])
                }
                let counts = try store.issueAndHeadlineCounts(publicationID: publication.id)
                return Outcome(publicationID: publication.id, issueCount: counts.issues, newIssueNames: [], problem: nil,
                               notModified: true, headlineCount: counts.headlines)
            }
            return try apply(feed, validators: newValidators, to: publication, markingNewArrivals: true)
        } catch {
            let reason = "\(publication.title): \(error)"
            try? store.recordRefreshFailure(publicationID: publication.id, error: reason)
            // The next refresh asks for the whole feed again rather than trusting a 304.
            try? store.setFeedValidators(nil, publicationID: publication.id)
            var outcome = Outcome(publicationID: publication.id, issueCount: 0, newIssueNames: [], problem: reason)
            if case .loginRequired(_, let realm)? = error as? HTTPError, let host = CredentialHost(url: publication.feedURL) {
                outcome.loginRequired = LoginChallenge(host: host.description, realm: realm)
            }
            return outcome
        }
    }

    /// The feed at `url` and the pages after it, or nil when the first page is unchanged since `validators`.
    /// Every page is fetched only where `origin` (the catalog subscribed to) may point, and its links to follow
    /// are only those it may point to (`Feed.keepingReferences(admittedBy:)`).
    private func fetch(_ url: URL, from origin: DocumentOrigin, validators: FetchValidators?) throws -> (Feed, FetchValidators?)? {
        let first: Data
        var newValidators: FetchValidators?
        switch try ResourceFetcher.fetchConditionally(url, from: origin, validators: validators, timeout: feedTimeout, client: client) {
        case .notModified: return nil
        case .fetched(let data, let fetchedValidators):
            first = data
            newValidators = fetchedValidators.isEmpty ? nil : fetchedValidators
        }
        var feed = try FeedParser.parse(first, url: url).keepingReferences(admittedBy: origin)
        var visited: Set<URL> = [url]
        var names = Set(feed.entries.map(\.name))
        var page = 1
        while let next = feed.nextPage {
            guard page < maxPages, feed.entries.count < maxEntries else { break }
            guard visited.insert(next).inserted else {
                feed.nextPage = nil
                break
            }
            page += 1
            feed.nextPage = nil
            do {
                let more = try FeedParser.parse(try ResourceFetcher.fetch(next, from: origin, timeout: feedTimeout, client: client), url: next).keepingReferences(admittedBy: origin)
                for entry in more.entries {
                    if names.insert(entry.name).inserted {
                        feed.entries.append(entry)
                    } else {
                        feed.problems.append("issue '\(entry.name)' is listed twice; the first is kept")
                    }
                }
                feed.headlines += more.headlines
                feed.navigation += more.navigation
                feed.problems += more.problems
                feed.nextPage = more.nextPage
            } catch {
                feed.problems.append("page \(page) (\(next.absoluteString)) was not read: \(error)")
                break
            }
        }
        if feed.entries.count > maxEntries {
            // The newest, in the feed's order.
            let kept = Set(feed.entries.indices.sorted { feed.entries[$0].date > feed.entries[$1].date }.prefix(maxEntries))
            feed.entries = feed.entries.indices.filter(kept.contains).map { feed.entries[$0] }
        }
        return (feed, newValidators)
    }

    @discardableResult
    private func apply(_ feed: Feed, validators: FetchValidators?, to publication: Publication, markingNewArrivals: Bool) throws -> Outcome {
        let known = Set(try store.issues(publicationID: publication.id).map(\.name))
        let issues = try store.upsertIssues(feed.entries, publicationID: publication.id, markingNewArrivals: markingNewArrivals)
        let headlines = feed.headlines.count > maxHeadlines ? Array(feed.headlines.prefix(maxHeadlines)) : feed.headlines
        try store.replaceHeadlines(headlines, publicationID: publication.id, markingNewArrivals: markingNewArrivals)
        let problem = feed.problems.isEmpty ? nil
            : "\(publication.title): skipped \(feed.problems.count) of \(feed.problems.count + feed.entries.count) issues: " + feed.problems.joined(separator: "; ")
        // A publication read from a catalog root keeps the root's title, not the chosen feed's.
        try store.recordRefresh(publicationID: publication.id, title: publication.catalogRoot == nil ? feed.title : nil, error: problem)
        try store.setFeedValidators(validators, publicationID: publication.id)
        try store.setFeedFormat(feed.format, publicationID: publication.id)
        return Outcome(publicationID: publication.id, issueCount: issues.count,
                       newIssueNames: feed.entries.map(\.name).filter { !known.contains($0) }, problem: problem, notModified: false,
                       headlineCount: headlines.count)
    }

    static func fallbackTitle(for url: URL) -> String {
        let stem = url.deletingPathExtension().lastPathComponent
        if !stem.isEmpty, stem != "/", !["catalog", "feed", "issues", "index"].contains(stem.lowercased()) { return stem }
        return url.host ?? url.deletingLastPathComponent().lastPathComponent
    }
}

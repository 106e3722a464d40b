import Foundation

/// Chooses, among an OPDS navigation feed's links, the acquisition feed a reader wants as a shelf:
/// the one marked `rel="http://opds-spec.org/sort/new"`, else one titled like "New", "Newest",
/// "Recent" or "Latest", else the first that says it is an acquisition feed, else the first link.
public enum CatalogShelfChooser {
    /// The link to follow, or nil when there is none.
    public static func choice(in navigation: [NavigationLink]) -> NavigationLink? {
        candidates(in: navigation).first
    }

    /// Every link in the order they are worth trying: `sort/new`, titled like new, marked as acquisition
    /// feeds, then the rest in feed order. (A catalog such as Komga lists "Latest series", a list of series,
    /// before "Latest books": the subscriber tries the next when one turns out to be more navigation.)
    public static func candidates(in navigation: [NavigationLink]) -> [NavigationLink] {
        let ranked = navigation.enumerated().map { index, link -> (rank: Int, index: Int, link: NavigationLink) in
            let rank = link.rel == "http://opds-spec.org/sort/new" ? 0 : isTitledNew(link.title) ? 1 : link.isAcquisitionFeed ? 2 : 3
            return (rank, index, link)
        }
        return ranked.sorted { ($0.rank, $0.index) < ($1.rank, $1.index) }.map(\.link)
    }

    /// Whether a title reads like "newest first": one of its words is new, newest, recent, recently or latest.
    static func isTitledNew(_ title: String) -> Bool {
        let words = title.lowercased().split { !$0.isLetter }
        return words.contains { ["new", "newest", "recent", "recently", "latest", "neu", "neueste", "nouveautés", "novedades"].contains(String($0)) }
    }

    /// Whether a feed is a catalog's navigation (something to follow) rather than a shelf: OPDS, with
    /// navigation links and no issues.
    public static func isNavigation(_ feed: Feed) -> Bool {
        (feed.format == .opds1 || feed.format == .opds2) && feed.entries.isEmpty && !feed.navigation.isEmpty
    }
}

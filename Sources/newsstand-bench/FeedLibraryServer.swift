import Foundation
import LocalHTTPServer
import NewsstandCore

/// Sets of RSS feeds served by a `LocalHTTPServer` on 127.0.0.1, for readers to subscribe to: each
/// feed has `itemsPerFeed` items, every one dated and with an enclosure (so Newsstand lists it as an
/// issue with something to download). The enclosures point at the same server, where nothing is
/// served: nothing can leave the machine even if a download were started.
///
/// Feed `n` of a set is titled "Bench Feed nnnn"; its items are "Feed nnnn issue kkk", `kkk` from
/// 001 (oldest) to `itemsPerFeed` (newest), one day apart.
struct FeedLibraryServer {
    /// One set of feeds under its own folder of the server.
    struct FeedSet {
        let folder: String
        let feedCount: Int
        let itemsPerFeed: Int
        let urls: [URL]

        var issueCount: Int { feedCount * itemsPerFeed }

        /// The first feed's title: the first tab of the shelf's header, the first line of newsboat's feed list.
        var firstFeedTitle: String { FeedLibraryServer.feedTitle(0) }

        /// The title of the newest item of the first feed: the first row of Newsstand's shelf.
        var newestItemOfFirstFeed: String { FeedLibraryServer.itemTitle(feed: 0, number: itemsPerFeed) }

        /// The feeds as OPML, in order, the way `newsstand import` (and newsboat's export) reads them.
        func opml() -> String {
            OPMLDocument(title: "newsstand-bench \(folder)",
                         outlines: urls.enumerated().map { OPMLDocument.Outline(title: FeedLibraryServer.feedTitle($0.offset), feedURL: $0.element) }).xml()
        }

        /// The feeds as a newsboat `urls` file, in the same order.
        func newsboatURLs() -> String {
            urls.map(\.absoluteString).joined(separator: "\n") + "\n"
        }
    }

    let server = LocalHTTPServer()

    func start() throws {
        try server.start()
    }

    func stop() {
        server.stop()
    }

    /// Serves `feedCount` feeds of `itemsPerFeed` items under `/folder/`.
    func serve(folder: String, feedCount: Int, itemsPerFeed: Int) -> FeedSet {
        let dates = Self.itemDates(count: itemsPerFeed)
        var urls: [URL] = []
        for feed in 0..<feedCount {
            let path = "/\(folder)/feed-\(Self.padded(feed, 4)).rss"
            server.setResource(path, data: feedData(feed: feed, folder: folder, dates: dates), contentType: "application/rss+xml")
            urls.append(server.url(for: path))
        }
        return FeedSet(folder: folder, feedCount: feedCount, itemsPerFeed: itemsPerFeed, urls: urls)
    }

    static func feedTitle(_ feed: Int) -> String { "Bench Feed \(padded(feed, 4))" }

    static func itemTitle(feed: Int, number: Int) -> String { "Feed \(padded(feed, 4)) issue \(padded(number, 3))" }

    /// Item `number` (1-based, oldest first) of every feed is dated `dates[number - 1]`.
    private func feedData(feed: Int, folder: String, dates: [String]) -> Data {
        let feedNumber = Self.padded(feed, 4)
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>\(Self.feedTitle(feed))</title><link>\(server.baseURL.absoluteString)</link>\
            <description>Feed \(feedNumber) of the launch benchmark</description>

            """
        // Newest first, as feeds usually list them.
        for number in stride(from: dates.count, through: 1, by: -1) {
            let issue = Self.padded(number, 3)
            let enclosure = server.url(for: "/\(folder)/issues/\(feedNumber)-\(issue).epub").absoluteString
            text += """
                <item><guid isPermaLink="false">\(folder)-\(feedNumber)-\(issue)</guid><title>\(Self.itemTitle(feed: feed, number: number))</title>\
                <pubDate>\(dates[number - 1])</pubDate><description>Issue \(issue) of feed \(feedNumber): maps, tea and the long way round.</description>\
                <enclosure url="\(enclosure)" length="2000000" type="application/epub+zip"/></item>

                """
        }
        text += "</channel></rss>\n"
        return Data(text.utf8)
    }

    /// RFC 822 dates one day apart, oldest first, the newest on 1 November 2025 at 10:00 GMT.
    private static func itemDates(count: Int) -> [String] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let newest = Date(timeIntervalSince1970: 1_761_991_200) // 2025-11-01 10:00 GMT
        return (1...max(1, count)).map { formatter.string(from: newest.addingTimeInterval(-Double(count - $0) * 86_400)) }
    }

    private static func padded(_ value: Int, _ digits: Int) -> String {
        String(format: "%0\(digits)d", value)
    }
}

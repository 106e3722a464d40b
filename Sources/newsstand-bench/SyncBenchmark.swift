import Foundation
import LocalHTTPServer
import NewsstandCore

/// Case `sync`: a full sync of 200 subscriptions from a local server (every feed fetched, parsed and
/// stored; no downloads), then a second sync where every feed answers 304 Not Modified.
struct SyncBenchmark {
    var subscriptions = 200
    var issuesPerFeed = 12

    func run() throws {
        var table = ResultTable(title: "Sync: \(subscriptions) subscriptions × \(issuesPerFeed) issues from 127.0.0.1")
        let folder = try TemporaryFolder(prefix: "newsstand-bench-sync")
        defer { folder.remove() }
        let server = LocalHTTPServer()
        try server.start()
        defer { server.stop() }
        for feed in 0..<subscriptions {
            server.setResource("/feeds/\(feed).rss", data: Self.feed(number: feed, issues: issuesPerFeed), contentType: "application/rss+xml")
        }
        let paths = LibraryPaths(dataDirectory: folder.url.appendingPathComponent("data"), configDirectory: folder.url.appendingPathComponent("config"),
                                 cacheDirectory: folder.url.appendingPathComponent("cache"))
        try paths.createDirectories()
        let store = try LibraryStore(file: paths.databaseFile)
        defer { store.close() }
        for feed in 0..<subscriptions {
            try store.addPublication(title: "Feed \(feed)", feedURL: server.url(for: "feeds/\(feed).rss"))
        }
        let downloads = DownloadQueue(store: store, paths: paths) { _ in }
        let sync = SyncService(store: store, paths: paths)
        progress("syncing \(subscriptions) subscriptions twice")

        let (first, firstSeconds) = MonotonicClock.measure { sync.refreshAndQueue(into: downloads) }
        let issues = try store.allIssues().count
        let failures = first.filter { $0.outcome.problem != nil }.count
        table.add("first sync", runs: 1, median: Format.duration(firstSeconds),
                  notes: "\(Format.count(issues)) issues stored, \(failures) failed; \(Format.count(Int(Double(subscriptions) / firstSeconds))) feeds/s")
        let (second, secondSeconds) = MonotonicClock.measure { sync.refreshAndQueue(into: downloads) }
        let unchanged = second.filter(\.outcome.notModified).count
        table.add("second sync (conditional GET)", runs: 1, median: Format.duration(secondSeconds),
                  notes: "\(unchanged) of \(subscriptions) answered 304 Not Modified")
        table.print()
    }

    static func feed(number: Int, issues: Int) -> Data {
        var items = ""
        for issue in 0..<issues {
            items += """
                <item><guid>feed\(number)-issue\(issue)</guid><title>Issue \(issue) of feed \(number)</title>\
                <pubDate>Mon, \(String(format: "%02d", issue % 28 + 1)) Jan 2025 10:00:00 GMT</pubDate><description>Summary \(issue).</description>\
                <enclosure url="https://example.com/\(number)/\(issue).epub" length="1000" type="application/epub+zip"/></item>
                """
        }
        return Data(#"<?xml version="1.0"?><rss version="2.0"><channel><title>Feed \#(number)</title>\#(items)</channel></rss>"#.utf8)
    }
}

import Foundation
import XCTest
@testable import NewsstandCore
import LocalHTTPServer

/// Audio, video and other files that are not a readable issue are never queued (issue 12): judged from
/// the feed's types and file names before any download, and from the response's Content-Type before
/// any byte is written.
final class MediaEnclosureTests: XCTestCase {
    private let podcast = """
        <?xml version="1.0"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Kettle Talk</title>
        <item><guid>ep-1</guid><title>Episode 1</title><link>https://example.com/ep/1</link>
          <enclosure url="https://example.com/audio/ep1.mp3" length="1000" type="audio/mpeg"/></item>
        <item><guid>ep-2</guid><title>Episode 2</title><enclosure url="media/ep2.m4a" length="1000"/></item>
        <item><guid>ep-3</guid><title>Episode 3 (video)</title><enclosure url="media/ep3" type="video/mp4"/></item>
        </channel></rss>
        """

    func testContentKindFromTypeThenFileName() {
        XCTAssertEqual(ContentKind.of(type: "application/epub+zip", link: "x"), .readable)
        XCTAssertEqual(ContentKind.of(type: "application/vnd.comicbook+zip", link: "x"), .readable)
        XCTAssertEqual(ContentKind.of(type: nil, link: "https://e.com/a/b.CBZ?x=1"), .readable)
        XCTAssertEqual(ContentKind.of(type: "application/octet-stream", link: "https://e.com/issue.pdf"), .readable)
        XCTAssertEqual(ContentKind.of(type: "audio/mpeg; charset=x", link: "a.epub"), .other(description: "audio (audio/mpeg)"),
                       "a type that tells wins over the name")
        XCTAssertEqual(ContentKind.of(type: nil, link: "https://e.com/ep.mp3#t=10"), .other(description: "audio (.mp3)"))
        XCTAssertEqual(ContentKind.of(type: "", link: "https://e.com/v.webm"), .other(description: "video (.webm)"))
        XCTAssertEqual(ContentKind.of(type: nil, link: "https://e.com/download?id=4"), .unknown)
        XCTAssertEqual(ContentKind.of(type: "application/zip", link: "https://e.com.example/issue"), .unknown)
        XCTAssertTrue(ContentKind.of(type: "image/jpeg", link: "c.jpg").isOther)
        XCTAssertEqual(ContentKind.of(type: "audio/\u{1B}[31mred", link: ""), .other(description: "audio (audio/red)"),
                       "no escape sequence from a feed reaches a message")
        XCTAssertTrue(ContentKind.isStreamedMedia(contentType: "Video/MP4"))
        XCTAssertFalse(ContentKind.isStreamedMedia(contentType: "application/epub+zip"))
        XCTAssertFalse(ContentKind.isStreamedMedia(contentType: "image/png"), "only audio and video stop at the head")
    }

    /// The in-place reading of a type is what split, Foundation's trimming and lowercased() give.
    func testContentTypeNormalisedInPlaceAsThroughFoundation() {
        var random = SeededRandom(seed: 12)
        let pieces = ["application/epub+zip", "audio/mpeg", "Video/MP4", ";", " ", "\t", "\n", "charset=utf-8", "x", "É", "\u{A0}",
                      "\u{3000}", "/", "+", "\u{1B}[31m", ""]
        var samples: [String?] = [nil, "", " ", ";", "; x", "a;", " a ;b", "\u{A0}audio/mpeg", "AUDIO/MPEG"]
        for _ in 0..<20_000 {
            samples.append((0..<Int.random(in: 1...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
        }
        for sample in samples {
            let general = (sample ?? "").split(separator: ";", maxSplits: 1).first
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            XCTAssertEqual(ContentKind.normalized(sample), general, String(describing: sample).debugDescription)
        }
    }

    func testPodcastItemsAreHeadlinesNamingTheirFiles() throws {
        let feed = try FeedParser.parse(Data(podcast.utf8), url: URL(string: "https://example.com/podcast.rss")!)
        XCTAssertEqual(feed.entries, [])
        XCTAssertEqual(feed.headlines.map(\.title), ["Episode 1", "Episode 2", "Episode 3 (video)"])
        XCTAssertEqual(feed.headlines.map(\.mediaURL?.absoluteString),
                       ["https://example.com/audio/ep1.mp3", "https://example.com/media/ep2.m4a", "https://example.com/media/ep3"])
        XCTAssertEqual(feed.headlines.map(\.mediaKind), ["audio (audio/mpeg)", "audio (.m4a)", "video (video/mp4)"])
        XCTAssertEqual(feed.headlines[0].link?.absoluteString, "https://example.com/ep/1")
    }

    func testAnItemWithAnIssueAndAudioKeepsOnlyTheIssue() throws {
        let rss = """
            <rss version="2.0"><channel><title>T</title><item><guid>i-1</guid><title>Issue 1</title>
            <enclosure url="https://example.com/talk.mp3" type="audio/mpeg"/>
            <enclosure url="https://example.com/i1.epub" type="application/epub+zip"/></item></channel></rss>
            """
        let feed = try FeedParser.parse(Data(rss.utf8), url: URL(string: "https://example.com/f.rss")!)
        XCTAssertEqual(feed.entries.map(\.contentURLTexts), [["https://example.com/i1.epub"]])
        XCTAssertEqual(feed.entries.map(\.contentTypes), [["application/epub+zip"]])
        XCTAssertEqual(feed.headlines, [])
    }

    func testAnOPDSAudiobookIsAHeadlineNotAnIssue() throws {
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog"><title>Books</title>
            <entry><id>urn:book:1</id><title>Read aloud</title><updated>2025-01-01T00:00:00Z</updated>
            <link rel="http://opds-spec.org/acquisition/open-access" href="/b/1.m4b" type="audio/mp4"/></entry>
            <entry><id>urn:book:2</id><title>Printed</title><updated>2025-01-01T00:00:00Z</updated>
            <link rel="http://opds-spec.org/acquisition/open-access" href="/b/2.epub" type="application/epub+zip"/></entry></feed>
            """
        let feed = try FeedParser.parse(Data(atom.utf8), url: URL(string: "https://example.com/opds")!)
        XCTAssertEqual(feed.entries.map(\.name), ["urn:book:2"])
        XCTAssertEqual(feed.headlines.map(\.title), ["Read aloud"])
        XCTAssertEqual(feed.headlines.first?.mediaKind, "audio (audio/mp4)")
    }

    /// A podcast feed served over HTTP subscribes with no issue queued and nothing of its audio fetched.
    func testPodcastFeedQueuesNothing() throws {
        let (store, _) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        server.setResource("/podcast.rss", data: Data(podcast.utf8), contentType: "application/rss+xml")
        server.setResource("/media/ep2.m4a", data: Data(count: 1000), contentType: "audio/mp4")
        let publication = try PublicationRefresher(store: store).subscribe(to: server.url(for: "/podcast.rss"))
        XCTAssertEqual(try store.issues(publicationID: publication.id), [])
        XCTAssertEqual(try store.issueCounts(publicationID: publication.id).total, 0)
        let headlines = try store.headlines(publicationID: publication.id)
        XCTAssertEqual(headlines.map(\.title), ["Episode 1", "Episode 2", "Episode 3 (video)"])
        XCTAssertEqual(headlines[1].mediaURL, server.url(for: "/media/ep2.m4a"), "the file is kept for the player")
        XCTAssertEqual(headlines[1].mediaKind, "audio (.m4a)")
        XCTAssertEqual(server.settledLog().map(\.path), ["/podcast.rss"], "no media file is fetched")

        let outcome = PublicationRefresher(store: store).refresh(publication)
        XCTAssertEqual(outcome.issueCount, 0)
        XCTAssertEqual(outcome.newIssueNames, [])
        XCTAssertEqual(outcome.headlineCount, 3)
    }

    /// An issue whose file turns out to be audio (no type in the feed, no telling name) stops at the
    /// response's head: a plain reason, no retry, no byte written, nothing installed.
    func testAResponseWhoseContentTypeIsAudioStopsTheDownload() throws {
        let (store, paths) = try TestSupport.store(for: self)
        let server = try TestSupport.server(for: self)
        server.setResource("/get/7", data: Data(repeating: 0x49, count: 4 << 20), contentType: "audio/mpeg")
        let publication = try store.addPublication(title: "Mislabelled", feedURL: server.url(for: "/feed.rss"))
        let issue = try XCTUnwrap(try store.upsertIssues([TestSupport.entry("ep-7", content: [server.url(for: "/get/7")])],
                                                         publicationID: publication.id).first)
        let events = EventLog<DownloadEvent>()
        let written = EventLog<Int>()
        let queue = DownloadQueue(store: store, paths: paths, policy: DownloadPolicy(maxAttempts: 3, backoffBase: 0.01, backoffCap: 0.02),
                                  freeSpace: { _ in nil }, beforeWrite: { written.append($0) }) { events.append($0) }
        addTeardownBlock { _ = queue.waitUntilIdle(timeout: 15) }
        queue.enqueue(issueID: issue.id)
        _ = events.wait(timeout: 30) { $0.contains { $0.issueID == issue.id && $0.isTerminal } }
        guard case .failed(_, let reason)? = events.all.last(where: { $0.isTerminal }) else {
            return XCTFail("expected a failure, got \(events.all)")
        }
        XCTAssertTrue(reason.contains("audio (audio/mpeg)") && reason.contains("not a readable issue"), reason)
        XCTAssertEqual(written.all, [], "no byte of the body is written")
        XCTAssertEqual(server.settledLog().filter { $0.path == "/get/7" }.count, 1, "not retried")
        XCTAssertFalse(FileManager.default.fileExists(atPath: paths.partialFile(issueID: issue.id, asset: 0).path))
        XCTAssertEqual(try store.issue(id: issue.id)?.state, .failed(reason: reason))
    }

    func testHookCommandPutsTheURLInOneArgumentWithoutAShell() throws {
        let configuration = Configuration.parse("player mpv --no-video %u\n")
        XCTAssertEqual(configuration.warnings, [])
        let player = try XCTUnwrap(configuration.player)
        let url = URL(string: "https://example.com/a%20b.mp3?x=1&y=$(rm%20-rf)")!
        let invocation = player.invocation(for: url)
        XCTAssertEqual(invocation.program, "mpv")
        XCTAssertEqual(invocation.arguments, ["--no-video", url.absoluteString])
        XCTAssertEqual(HookCommand("vlc")?.invocation(for: url).arguments, [url.absoluteString], "without %u the URL goes last")
        XCTAssertNil(Configuration.parse("player").player)
        XCTAssertTrue(Configuration.parse("player").warnings.first?.contains("player takes a program") ?? false)
    }
}

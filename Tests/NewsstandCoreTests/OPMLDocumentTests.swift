import XCTest
@testable import NewsstandCore

final class OPMLDocumentTests: XCTestCase {
    func testRoundTripKeepsTitlesAndURLsWithAwkwardCharacters() throws {
        let document = OPMLDocument(outlines: [
            .init(title: "Kettle & Compass <quarterly>", feedURL: URL(string: "https://example.com/feed?a=1&b=\"2\"")!),
            .init(title: "金継ぎ Weekly", feedURL: URL(fileURLWithPath: "/srv/catalog.plist"), siteURL: URL(string: "https://example.org/")),
        ])
        let parsed = try OPMLDocument.parse(Data(document.xml().utf8))
        XCTAssertEqual(parsed.outlines, document.outlines)
        XCTAssertEqual(parsed.title, "Newsstand subscriptions")
    }

    func testReadsNewsboatStyleExportWithFoldersAndSkipsOutlinesWithoutFeeds() throws {
        let newsboat = """
            <?xml version="1.0"?>
            <opml version="1.0">
              <head><title>newsboat - Exported Feeds</title></head>
              <body>
                <outline type="rss" xmlUrl="https://a.example/rss" htmlUrl="https://a.example/" title="Alpha"/>
                <outline title="Folder">
                  <outline type="rss" xmlurl="https://b.example/atom" text="Beta"/>
                  <outline type="rss" xmlUrl="javascript:alert(1)" title="Evil"/>
                </outline>
                <outline text="No feed here"/>
              </body>
            </opml>
            """
        let parsed = try OPMLDocument.parse(Data(newsboat.utf8))
        XCTAssertEqual(parsed.title, "newsboat - Exported Feeds")
        XCTAssertEqual(parsed.outlines.map(\.title), ["Alpha", "Beta"])
        XCTAssertEqual(parsed.outlines.map(\.feedURL.absoluteString), ["https://a.example/rss", "https://b.example/atom"])
        XCTAssertEqual(parsed.outlines.first?.siteURL?.absoluteString, "https://a.example/")
    }

    func testSomethingElseIsRefusedInPlainWords() {
        XCTAssertThrowsError(try OPMLDocument.parse(Data("<rss><channel/></rss>".utf8))) { XCTAssertTrue("\($0)".hasPrefix("not an OPML file")) }
        XCTAssertThrowsError(try OPMLDocument.parse(Data("not xml at all".utf8))) { XCTAssertTrue("\($0)".hasPrefix("not an OPML file")) }
    }

    func testTitlesAreSanitised() throws {
        let opml = #"<opml version="2.0"><body><outline title="Evil&#x202E; Feed&#x9B;2J" xmlUrl="https://e.example/"/></body></opml>"#
        XCTAssertEqual(try OPMLDocument.parse(Data(opml.utf8)).outlines.first?.title, "Evil Feed")
    }
}

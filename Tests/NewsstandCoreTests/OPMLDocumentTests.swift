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

    func testImportSkipsKnownFeedsAndNamesFailures() throws {
        let (store, paths) = try TestSupport.store(for: self)
        let sample = TestFiles.sampleLibrary.appendingPathComponent("catalog.plist")
        let missing = paths.dataDirectory.appendingPathComponent("missing.plist")
        let document = OPMLDocument(outlines: [.init(title: "Sample", feedURL: sample), .init(title: "Gone", feedURL: missing)])
        var result = try OPMLImport.run(document, store: store)
        XCTAssertEqual(result.added, 1)
        XCTAssertEqual(result.failures.count, 1)
        XCTAssertTrue(result.failures[0].hasPrefix("Gone (\(missing.absoluteString)): "), result.failures[0])
        result = try OPMLImport.run(document, store: store)
        XCTAssertEqual(result.alreadySubscribed, 1)
        XCTAssertEqual(result.summary, "Imported 0 subscriptions; 1 already subscribed.")
        XCTAssertEqual(try OPMLImport.export(store: store).outlines.map(\.feedURL), [sample])
    }

    func testStorageReportMeasuresDownloadedIssues() throws {
        let (store, paths) = try TestSupport.store(for: self)
        let publication = try PublicationRefresher(store: store).subscribe(to: TestFiles.sampleLibrary.appendingPathComponent("catalog.plist"))
        let issues = try store.issues(publicationID: publication.id)
        for issue in issues.prefix(2) {
            let folder = paths.folder(for: issue, of: publication)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(count: 1 << 20).write(to: folder.appendingPathComponent("content.bin"))
            try store.setState(.available, issueID: issue.id)
        }
        let report = try StorageReport.measure(store: store, paths: paths, budget: 1 << 20)
        XCTAssertEqual(report.usage.first?.issueCount, 2)
        XCTAssertEqual(report.totalBytes, 2 << 20)
        XCTAssertEqual(report.plannedRemovals.map(\.name), [issues[1].name], "the older of the two goes; the newest is protected")
        XCTAssertEqual(try store.issue(id: issues[1].id)?.state, .available, "measuring removes nothing")
    }
}

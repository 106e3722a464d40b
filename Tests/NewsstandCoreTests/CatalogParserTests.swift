import Foundation
import XCTest
@testable import NewsstandCore

final class CatalogParserTests: XCTestCase {
    private let httpCatalog = URL(string: "https://news.example.com/feeds/kettle/catalog.plist")!

    private func parse(_ object: Any, catalogURL: URL? = nil) throws -> Catalog {
        try CatalogParser.parse(try TestSupport.xmlPlist(object), catalogURL: catalogURL ?? httpCatalog)
    }

    private func assertThrowsCatalogError(_ expression: @autoclosure () throws -> Catalog, containing text: String,
                                          file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            guard let error = error as? CatalogError else {
                return XCTFail("expected a CatalogError, got \(error)", file: file, line: line)
            }
            XCTAssertTrue(error.description.contains(text), "'\(error.description)' should mention '\(text)'", file: file, line: line)
        }
    }

    // MARK: Forms

    func testXMLRootArraySeedForm() throws {
        let catalog = try parse([
            TestSupport.catalogItem("one", content: "issues/one.epub", title: "First", date: Date(timeIntervalSince1970: 1_600_000_000), cover: "covers/one.png"),
            TestSupport.catalogItem("two", content: "https://cdn.example.com/two.epub", date: "2025-04-01"),
        ])
        XCTAssertNil(catalog.title)
        XCTAssertEqual(catalog.entries.map(\.name), ["one", "two"])
        XCTAssertEqual(catalog.problems, [])
        let one = catalog.entries[0]
        XCTAssertEqual(one.title, "First")
        XCTAssertEqual(one.date, Date(timeIntervalSince1970: 1_600_000_000))
        XCTAssertEqual(one.contentURLs, [URL(string: "https://news.example.com/feeds/kettle/issues/one.epub")!])
        XCTAssertEqual(one.coverURL, URL(string: "https://news.example.com/feeds/kettle/covers/one.png")!)
        XCTAssertEqual(catalog.entries[1].contentURLs, [URL(string: "https://cdn.example.com/two.epub")!])
        XCTAssertEqual(catalog.entries[1].date, ISO8601DateFormatter().date(from: "2025-04-01T00:00:00Z"))
    }

    func testDictionaryRootWithTitleAndIssues() throws {
        let catalog = try parse(["Title": "Kettle & Compass", "Issues": [TestSupport.catalogItem("a", content: "a.epub")]])
        XCTAssertEqual(catalog.title, "Kettle & Compass")
        XCTAssertEqual(catalog.entries.map(\.name), ["a"])
    }

    func testDictionaryWithoutIssuesThrows() {
        assertThrowsCatalogError(try parse(["Title": "No issues here"]), containing: "no list of issues")
    }

    func testBinaryPlistParses() throws {
        let object: [String: Any] = ["Title": "Binary", "Issues": [TestSupport.catalogItem("b1", content: "b1.epub", size: 1234)]]
        let data = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        XCTAssertEqual(Array(data.prefix(6)), Array("bplist".utf8), "the test must really feed a binary plist")
        let catalog = try CatalogParser.parse(data, catalogURL: httpCatalog)
        XCTAssertEqual(catalog.title, "Binary")
        XCTAssertEqual(catalog.entries.first?.name, "b1")
        XCTAssertEqual(catalog.entries.first?.expectedSize, 1234)
    }

    func testRelativeURLsResolveAgainstFileCatalog() throws {
        let base = URL(fileURLWithPath: "/srv/magazines/kettle/catalog.plist")
        let catalog = try parse([TestSupport.catalogItem("f", content: "issues/f.epub", cover: "../covers/f.jpg")], catalogURL: base)
        XCTAssertEqual(catalog.entries[0].contentURLs.map(\.path), ["/srv/magazines/kettle/issues/f.epub"])
        XCTAssertEqual(catalog.entries[0].contentURLs[0].scheme, "file")
        XCTAssertEqual(catalog.entries[0].coverURL?.standardizedFileURL.path, "/srv/magazines/covers/f.jpg")
    }

    func testRelativeURLsResolveAgainstHTTPCatalog() throws {
        let catalog = try parse([TestSupport.catalogItem("h", content: "/root/h.epub", cover: "../c/h.png")])
        XCTAssertEqual(catalog.entries[0].contentURLs[0].absoluteString, "https://news.example.com/root/h.epub")
        XCTAssertEqual(catalog.entries[0].coverURL?.absoluteString, "https://news.example.com/feeds/c/h.png")
    }

    func testLowercaseKeysAndContentArray() throws {
        let catalog = try parse(["title": "lower", "issues": [[
            "name": "l1", "title": "Lower", "date": "2024-01-02T03:04:05Z",
            "content": ["part1.epub", "extra/part2.pdf"], "summary": "Hello", "size": "42",
            "sha256": String(repeating: "AB", count: 32),
        ]]])
        XCTAssertEqual(catalog.title, "lower")
        let entry = try XCTUnwrap(catalog.entries.first)
        XCTAssertEqual(entry.name, "l1")
        XCTAssertEqual(entry.summary, "Hello")
        XCTAssertEqual(entry.contentURLs.map(\.lastPathComponent), ["part1.epub", "part2.pdf"])
        XCTAssertEqual(entry.expectedSize, 42)
        XCTAssertEqual(entry.expectedSHA256, String(repeating: "ab", count: 32), "digests are kept lowercase")
    }

    func testRackNewsstandCorpusCatalogParses() throws {
        let file = try TestFiles.corpus("newsstand/rack-newsstand/issues.plist")
        let catalog = try CatalogParser.parse(try Data(contentsOf: file), catalogURL: file)
        XCTAssertEqual(catalog.problems, [])
        let entry = try XCTUnwrap(catalog.entries.first)
        XCTAssertEqual(catalog.entries.count, 1)
        XCTAssertEqual(entry.name, "magazine-1")
        XCTAssertEqual(entry.title, "Magazine Issue 1")
        XCTAssertEqual(entry.summary, "Lorem ipsum dolar sit amet")
        XCTAssertEqual(entry.date, ISO8601DateFormatter().date(from: "2013-04-19T12:00:00Z"))
        XCTAssertEqual(entry.coverURL, URL(string: "http://example.com/assets/covers/magazine-1.png"))
        XCTAssertEqual(entry.contentURLs, [URL(string: "http://example.com/assets/content/magazine-1.pdf")!])
    }

    func testSizeAndSHA256AreRead() throws {
        let digest = "7b73558f96d9ef18b694fe3fc529a6991285f4a3f3ec105aaa4798329ea2abfa"
        let catalog = try parse([
            TestSupport.catalogItem("s", content: "s.epub", size: 146141, sha256: digest),
            TestSupport.catalogItem("bad-digest", content: "b.epub", sha256: "not-a-digest"),
        ])
        XCTAssertEqual(catalog.entries[0].expectedSize, 146141)
        XCTAssertEqual(catalog.entries[0].expectedSHA256, digest)
        XCTAssertNil(catalog.entries[1].expectedSHA256, "a malformed digest is ignored, not trusted")
        XCTAssertNil(catalog.entries[1].expectedSize)
    }

    func testSampleLibraryCatalogParses() throws {
        let url = TestFiles.sampleLibrary.appendingPathComponent("catalog.plist")
        let catalog = try CatalogParser.parse(try Data(contentsOf: url), catalogURL: url)
        XCTAssertEqual(catalog.entries.count, 6)
        XCTAssertEqual(catalog.problems, [])
        for entry in catalog.entries {
            XCTAssertNotNil(entry.expectedSize)
            XCTAssertEqual(entry.expectedSHA256?.count, 64)
            XCTAssertEqual(entry.contentURLs.count, 1)
            XCTAssertTrue(FileManager.default.fileExists(atPath: entry.contentURLs[0].path), "\(entry.contentURLs[0])")
            XCTAssertEqual(FileSize.of(entry.contentURLs[0]), entry.expectedSize)
        }
    }

    // MARK: Bad entries

    func testEntriesMissingKeysAreSkippedAndNamed() throws {
        var noName = TestSupport.catalogItem("x", content: "x.epub")
        noName["Name"] = nil
        var noDate = TestSupport.catalogItem("no-date", content: "d.epub")
        noDate["Date"] = nil
        var noContent = TestSupport.catalogItem("no-content", content: "c.epub")
        noContent["Content"] = nil
        let badDate = TestSupport.catalogItem("bad-date", content: "d.epub", date: "next tuesday-ish")
        let catalog = try parse([
            TestSupport.catalogItem("good-1", content: "1.epub"), noName, noDate, noContent, badDate, "not a dictionary",
            TestSupport.catalogItem("good-2", content: "2.epub"),
        ])
        XCTAssertEqual(catalog.entries.map(\.name), ["good-1", "good-2"])
        XCTAssertEqual(catalog.problems.count, 5, "\(catalog.problems)")
        XCTAssertTrue(catalog.problems.contains { $0.contains("#2") && $0.contains("Name") }, "\(catalog.problems)")
        XCTAssertTrue(catalog.problems.contains { $0.contains("'no-date'") && $0.contains("Date") }, "\(catalog.problems)")
        XCTAssertTrue(catalog.problems.contains { $0.contains("'no-content'") && $0.contains("Content") }, "\(catalog.problems)")
        XCTAssertTrue(catalog.problems.contains { $0.contains("'bad-date'") }, "\(catalog.problems)")
        XCTAssertTrue(catalog.problems.contains { $0.contains("#6") }, "\(catalog.problems)")
    }

    func testCatalogWhoseOnlyEntryIsBadThrows() {
        var only = TestSupport.catalogItem("lonely", content: "l.epub")
        only["Content"] = nil
        assertThrowsCatalogError(try parse([only]), containing: "lonely")
    }

    func testEmptyCatalogIsEmptyNotAnError() throws {
        let catalog = try parse([Any]())
        XCTAssertEqual(catalog.entries, [])
    }

    func testNotAPropertyListThrows() {
        assertThrowsCatalogError(try CatalogParser.parse(Data("<html><body>Oops</body></html>".utf8), catalogURL: httpCatalog),
                                 containing: "not a property list")
        assertThrowsCatalogError(try CatalogParser.parse(Data([0xFF, 0xFE, 0x00, 0x01, 0x80]), catalogURL: httpCatalog),
                                 containing: "not a property list")
    }

    func testDisallowedURLSchemesAreRejected() throws {
        let catalog = try parse([
            TestSupport.catalogItem("js", content: "javascript:alert(1)"),
            TestSupport.catalogItem("ftp", content: "ftp://example.com/a.epub"),
            TestSupport.catalogItem("data", content: "data:application/epub+zip;base64,AAAA"),
            TestSupport.catalogItem("mixed", content: ["ok.epub", "ftp://example.com/b.pdf"]),
            TestSupport.catalogItem("bad-cover", content: "ok.epub", cover: "javascript:alert(2)"),
            TestSupport.catalogItem("no-host", content: "http:///path.epub"),
        ])
        XCTAssertEqual(catalog.entries.map(\.name), ["bad-cover"])
        XCTAssertNil(catalog.entries[0].coverURL, "a javascript: cover is dropped")
        for name in ["js", "ftp", "data", "mixed", "no-host"] {
            XCTAssertTrue(catalog.problems.contains { $0.contains("'\(name)'") }, "\(name) should be named in \(catalog.problems)")
        }
        for entry in catalog.entries {
            for url in entry.contentURLs + [entry.coverURL].compactMap({ $0 }) {
                XCTAssertTrue(CatalogParser.allowedSchemes.contains(url.scheme ?? ""), "\(url)")
            }
        }
    }

    func testDuplicateNamesKeepTheFirst() throws {
        let catalog = try parse([
            TestSupport.catalogItem("dup", content: "first.epub", title: "First"),
            TestSupport.catalogItem("other", content: "o.epub"),
            TestSupport.catalogItem("dup", content: "second.epub", title: "Second"),
        ])
        XCTAssertEqual(catalog.entries.map(\.name), ["dup", "other"])
        XCTAssertEqual(catalog.entries[0].title, "First")
        XCTAssertEqual(catalog.entries[0].contentURLs.map(\.lastPathComponent), ["first.epub"])
        XCTAssertTrue(catalog.problems.contains { $0.contains("'dup'") && $0.contains("twice") }, "\(catalog.problems)")
    }

    func testControlCharactersAndEscapeSequencesInTextAreRemoved() throws {
        // Raw bytes, so the ESC, BEL and other C0 characters really are in the file.
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict>"
            + "<key>Title</key><string>Evil\u{1B}]0;owned\u{07} Weekly</string>"
            + "<key>Issues</key><array><dict>"
            + "<key>Name</key><string>n\u{1B}[2J1</string>"
            + "<key>Title</key><string>Red\u{1B}[31m Alert\u{1B}[0m\u{01}\u{08}\nNow</string>"
            + "<key>Summary</key><string>line one\r\nline\u{9B}1m two\u{7F}</string>"
            + "<key>Date</key><string>2025-01-01</string>"
            + "<key>Content</key><string>i.epub</string>"
            + "</dict></array></dict></plist>\n"
        let bytes = Data(xml.utf8)
        XCTAssertTrue(bytes.contains(0x1B) && bytes.contains(0x07) && bytes.contains(0x01))
        let catalog = try CatalogParser.parse(bytes, catalogURL: httpCatalog)
        XCTAssertEqual(catalog.title, "Evil Weekly")
        let entry = try XCTUnwrap(catalog.entries.first)
        XCTAssertEqual(entry.name, "n1")
        XCTAssertEqual(entry.title, "Red Alert Now")
        XCTAssertEqual(entry.summary, "line one line two")
        for text in [catalog.title ?? "", entry.name, entry.title, entry.summary] {
            XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(text.debugDescription)")
        }
    }

    // MARK: libplist corpus

    func testLibplistFilesThatMustFailAreRejected() throws {
        let folder = try TestFiles.corpus("plist/libplist")
        for name in ["amp.plist", "invalid_tag.plist", "malformed_dict.bplist", "recursion.bplist"] {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            XCTAssertThrowsError(try CatalogParser.parse(data, catalogURL: folder.appendingPathComponent(name)), name) { error in
                XCTAssertTrue(error is CatalogError, "\(name): \(error)")
            }
        }
    }

    func testNoLibplistCorpusFileCrashesTheParser() throws {
        let folder = try TestFiles.corpus("plist/libplist")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { [".plist", ".bplist", ".ostep", ".strings", ".json"].contains(where: $0.hasSuffix) }
        XCTAssertGreaterThan(names.count, 40)
        var parsed = 0
        for name in names.sorted() {
            let url = folder.appendingPathComponent(name)
            do {
                _ = try CatalogParser.parse(try Data(contentsOf: url), catalogURL: url)
                parsed += 1
            } catch let error as CatalogError {
                XCTAssertFalse(error.description.isEmpty, name)
            } catch {
                XCTFail("\(name): expected a CatalogError, got \(error)")
            }
        }
        // These are not catalogs: whatever parses, parses to an empty or skipped list without crashing.
        XCTAssertLessThan(parsed, names.count)
    }
}

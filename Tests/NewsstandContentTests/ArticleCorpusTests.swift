import Foundation
import NewsstandTestSupport
import XCTest
@testable import NewsstandContent

/// Every page of `../shared/corpora/readability` (Mozilla Readability's test pages) extracted and
/// scored against the article Readability gives: word F1 at or above the page's floor in
/// `Tests/ArticleCorpus/floors.tsv` (taken from a run, a little below it), the mean F1 above
/// `meanFloor`, the title and author line equal where the floors say they were, and `readerable`
/// right on every page.
///
/// `ARTICLE_FLOORS_OUT=path` writes a new floors file from this run (to raise them after an improvement).
final class ArticleCorpusTests: XCTestCase {
    static let meanFloor = 0.99

    struct Floor {
        var f1: Double
        var titleEqual: Bool
        var bylineEqual: Bool
    }

    static func floors() throws -> [String: Floor] {
        let url = TestFiles.packageRoot.appendingPathComponent("Tests/ArticleCorpus/floors.tsv")
        let text = try String(contentsOf: url, encoding: .utf8)
        var floors: [String: Floor] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 4, let f1 = Double(fields[1]) else { continue }
            floors[fields[0]] = Floor(f1: f1, titleEqual: fields[2] == "title", bylineEqual: fields[3] == "byline")
        }
        return floors
    }

    struct PageResult {
        var name: String
        var score: ArticleWordScore
        var titleEqual: Bool
        var bylineEqual: Bool
        var readerableRight: Bool
        var expectedReaderable: Bool
    }

    static func run(page folder: URL) throws -> PageResult {
        let source = try Data(contentsOf: folder.appendingPathComponent("source.html"))
        let expected = try Data(contentsOf: folder.appendingPathComponent("expected.html"))
        let metadataData = try Data(contentsOf: folder.appendingPathComponent("expected-metadata.json"))
        let metadata = try JSONSerialization.jsonObject(with: metadataData) as? [String: Any] ?? [:]
        let article = ArticleExtractor.extract(from: source, url: URL(string: "http://fakehost/test/page.html"))
        let score = ArticleWordScore(extracted: article.text, expected: ArticleWordScore.text(ofHTML: expected))
        let expectedTitle = (metadata["title"] as? String).map(PageNode.normalized)
        let expectedByline = (metadata["byline"] as? String).map(PageNode.normalized)
        let expectedReaderable = metadata["readerable"] as? Bool ?? true
        return PageResult(name: folder.lastPathComponent, score: score,
                          titleEqual: expectedTitle != nil && expectedTitle == article.title.map(PageNode.normalized),
                          bylineEqual: expectedByline != nil && expectedByline == article.byline.map(PageNode.normalized),
                          readerableRight: article.readerable == expectedReaderable, expectedReaderable: expectedReaderable)
    }

    func testEveryReadabilityPageAgainstItsFloor() throws {
        let root = try TestFiles.corpus("readability")
        let pages = try FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: [.isDirectoryKey])
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        XCTAssertEqual(pages.count, 87, "the shared folder holds 87 pages")
        let floors = try Self.floors()
        var results: [PageResult] = []
        for page in pages {
            let result = try Self.run(page: page)
            results.append(result)
            guard let floor = floors[result.name] else {
                XCTFail("\(result.name): no floor in Tests/ArticleCorpus/floors.tsv")
                continue
            }
            XCTAssertGreaterThanOrEqual(result.score.f1, floor.f1, "\(result.name): word F1 fell below its floor")
            if floor.titleEqual { XCTAssertTrue(result.titleEqual, "\(result.name): title no longer Readability's") }
            if floor.bylineEqual { XCTAssertTrue(result.bylineEqual, "\(result.name): byline no longer Readability's") }
            XCTAssertTrue(result.readerableRight, "\(result.name): readerable should be \(result.expectedReaderable)")
        }
        let f1s = results.map(\.score.f1).sorted()
        let mean = f1s.reduce(0, +) / Double(max(f1s.count, 1))
        let median = f1s.isEmpty ? 0 : f1s[f1s.count / 2]
        let titles = results.filter(\.titleEqual).count
        let bylines = results.filter(\.bylineEqual).count
        let readerable = results.filter(\.readerableRight).count
        print(String(format: "readability corpus: mean F1 %.4f, median %.4f, titles %d, bylines %d, readerable right %d of %d",
                     mean, median, titles, bylines, readerable, results.count))
        XCTAssertGreaterThan(mean, Self.meanFloor)
        if let out = ProcessInfo.processInfo.environment["ARTICLE_FLOORS_OUT"] {
            var text = "# page\tF1 floor (this run's F1 less 0.01, two places)\ttitle equal\tbyline equal\n"
            for result in results {
                let floor = max(0, (result.score.f1 * 100).rounded(.down) / 100 - 0.01)
                text += "\(result.name)\t\(String(format: "%.2f", floor))\t\(result.titleEqual ? "title" : "-")\t\(result.bylineEqual ? "byline" : "-")\n"
            }
            try text.write(toFile: out, atomically: true, encoding: .utf8)
        }
        if ProcessInfo.processInfo.environment["ARTICLE_SCORES"] != nil {
            for result in results.sorted(by: { $0.score.f1 < $1.score.f1 }) {
                print(String(format: "%-50@ F1 %.3f P %.3f R %.3f %@ %@ %@", result.name as NSString, result.score.f1,
                             result.score.precision, result.score.recall, result.titleEqual ? "T" : "-",
                             result.bylineEqual ? "B" : "-", result.readerableRight ? "" : "READERABLE WRONG"))
            }
        }
    }
}

import Foundation
import XCTest
import NewsstandTestSupport
@testable import NewsstandUI

/// The README's key table says what `KeyMap` does: every documented key works where the table says,
/// and every key with help text is documented for each screen it works on.
final class ReadmeKeyTableTests: XCTestCase {
    /// One row of the table: the screens of its "Where" column, the keys of its "Keys" column, and
    /// every key written anywhere in the row (the "What" column names a few more).
    private struct Row {
        let text: String
        let screens: Set<ScreenKind>
        let keys: [String]
        let mentioned: Set<String>
    }

    private static let screenNames: [String: Set<ScreenKind>] = [
        // Everywhere but while choosing a passage, which has keys of its own.
        "everywhere": Set(ScreenKind.allCases).subtracting([.selection]), "selecting a passage": [.selection],
        "bookmarks": [.bookmarks], "highlights": [.highlights], "shelf": [.shelf], "shelf (grid)": [.shelf], "issue page": [.detail],
        "contents": [.contents], "article": [.article], "help": [.help], "subscriptions": [.subscriptions],
        "headlines": [.headlines], "storage": [.storage], "accounts": [.accounts], "catalog": [.catalog], "search results": [.searchResults],
        "downloads": [.downloads], "getting a title": [.acquisitions],
        "streamed pages": [.streamedPages],
    ]

    private func rows() throws -> [Row] {
        let readme = try String(contentsOf: TestFiles.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "### Keys").dropFirst().first?.components(separatedBy: "\n### ").first)
        return try section.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| Where") }.map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            XCTAssertGreaterThanOrEqual(cells.count, 4, String(line))
            var screens: Set<ScreenKind> = []
            for name in cells[1].lowercased().components(separatedBy: ", ") {
                screens.formUnion(try XCTUnwrap(Self.screenNames[name], "unknown screen '\(name)' in: \(line)"))
            }
            return Row(text: String(line), screens: screens, keys: Self.codeSpans(cells[2]), mentioned: Set(Self.codeSpans(String(line))))
        }
    }

    /// The texts between backticks.
    private static func codeSpans(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    func testEveryKeyInTheReadmeDoesSomethingWhereItSays() throws {
        let keysByLabel = Dictionary(KeyMap.bindings.flatMap(\.keys).map { ($0.label, $0) }, uniquingKeysWith: { first, _ in first })
        let rows = try rows()
        XCTAssertGreaterThan(rows.count, 30)
        for row in rows {
            for label in row.keys {
                let key = try XCTUnwrap(keysByLabel[label], "`\(label)` is not a key of KeyMap: \(row.text)")
                for screen in row.screens {
                    XCTAssertNotNil(KeyMap.command(for: key, on: screen), "`\(label)` does nothing on \(screen): \(row.text)")
                }
            }
        }
    }

    func testEveryKeyWithHelpIsInTheReadmeForEachScreenItWorksOn() throws {
        let rows = try rows()
        for binding in KeyMap.bindings where !binding.help.isEmpty {
            for key in binding.keys {
                switch key {
                case .mouseClick, .scrollUp, .scrollDown: continue  // written as words: click, wheel
                default: break
                }
                for screen in binding.screens {
                    XCTAssertTrue(rows.contains { $0.screens.contains(screen) && $0.mentioned.contains(key.label) },
                                  "README's key table does not mention `\(key.label)` (\(binding.help)) on \(screen)")
                }
            }
        }
    }
}

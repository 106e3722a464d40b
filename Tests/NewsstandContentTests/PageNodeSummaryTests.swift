import Foundation
import NewsstandTestSupport
import XCTest
@testable import NewsstandContent

/// The text lengths `PageNode` keeps per subtree (`innerTextLength`, `linkTextLength`,
/// `trimmedTextLength`, `hasVisibleText`) against the same figures counted the slow way from
/// `textContent`, on real pages and after the tree is reshaped (nodes taken out, moved, renamed,
/// links' addresses changed, text changed, copied), so a change that forgets a kept length fails.
final class PageNodeSummaryTests: XCTestCase {
    /// The figures counted from scratch: the text built and measured.
    static func expectedLinkLength(_ node: PageNode) -> Double {
        var length = 0.0
        for link in node.elements(named: "a") {
            let href = link["href"] ?? ""
            let text = PageNode.normalized(link.textContent)
            length += Double(text.utf16.count) * (href.count > 1 && href.hasPrefix("#") ? 0.3 : 1)
        }
        return length
    }

    static func check(_ root: PageNode, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        var checked = 0
        for node in [root] + root.elements(named: Set(["div", "p", "a", "span", "li", "ul", "td", "table", "article", "section", "body", "b", "em"])) {
            let text = node.textContent
            XCTAssertEqual(node.innerTextLength, PageNode.normalized(text).utf16.count, "\(label): innerTextLength of a \(node.name)", file: file, line: line)
            XCTAssertEqual(node.linkTextLength, expectedLinkLength(node), accuracy: 1e-6, "\(label): linkTextLength of a \(node.name)", file: file, line: line)
            XCTAssertEqual(node.trimmedTextLength, text.trimmingCharacters(in: .whitespacesAndNewlines).utf16.count,
                           "\(label): trimmedTextLength of a \(node.name)", file: file, line: line)
            XCTAssertEqual(node.hasVisibleText, text.unicodeScalars.contains { !PageNode.isWhitespace($0) },
                           "\(label): hasVisibleText of a \(node.name)", file: file, line: line)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 10, label, file: file, line: line)
    }

    func testKeptLengthsMatchTheTextOnRealPagesAndAfterChanges() throws {
        let root = try TestFiles.corpus("readability")
        for page in ["001", "wikipedia", "nytimes-1", "mozilla-2", "guardian-1"] {
            let url = root.appendingPathComponent(page).appendingPathComponent("source.html")
            let tree = PageTreeBuilder.build(data: try Data(contentsOf: url), encoding: nil, limits: .default)
            Self.check(tree, "\(page) as read")
            // Reshape it as the extractor does, asking for lengths between changes so kept ones must be forgotten.
            var generator = SeededGenerator(seed: UInt64(page.utf8.count))
            let elements = tree.elements(named: Set(["div", "p", "span", "a", "li", "ul", "section"]))
            XCTAssertFalse(elements.isEmpty, page)
            for step in 0..<60 {
                let node = elements.randomElement(using: &generator)!
                _ = tree.innerTextLength
                _ = node.parent?.linkTextLength
                switch step % 6 {
                case 0: node.detach()
                case 1: node.rename(node.name == "a" ? "span" : "a")
                case 2: node["href"] = step % 4 == 0 ? "#note" : "https://example.org/"
                case 3:
                    let target = elements.randomElement(using: &generator)!
                    if target !== node, !target.ancestors().contains(where: { $0 === node }) { target.append(node) }
                case 4:
                    let text = PageNode(text: " moved\u{00A0} words, and more ")
                    node.insert(text, before: node.firstChild)
                default:
                    node.forEachDescendant { if $0.isText { $0.text += "  x " } }
                }
            }
            Self.check(tree, "\(page) reshaped")
            Self.check(tree.copy(), "\(page) copied")
        }
    }

    func testLengthsJoinTextAcrossNodesAsInnerTextDoes() {
        let paragraph = PageNode(name: "p")
        for text in ["  ", "one", "", "two ", " ", "\u{1F600}three", "\n", "", "  four  "] { paragraph.append(PageNode(text: text)) }
        let link = PageNode(name: "a", attributes: ["href": "#top"])
        link.append(PageNode(text: " five "))
        paragraph.append(link)
        XCTAssertEqual(PageNode.normalized(paragraph.textContent), "onetwo \u{1F600}three four five")
        XCTAssertEqual(paragraph.innerTextLength, 24)
        XCTAssertEqual(paragraph.linkTextLength, 4 * 0.3, accuracy: 1e-9)
        XCTAssertEqual(paragraph.trimmedTextLength, paragraph.textContent.trimmingCharacters(in: .whitespacesAndNewlines).utf16.count)
        link["href"] = "https://example.org/"
        XCTAssertEqual(paragraph.linkTextLength, 4)
        link.detach()
        XCTAssertEqual(paragraph.innerTextLength, 19)
        XCTAssertEqual(paragraph.linkTextLength, 0)
    }
}

/// A small repeatable generator (the same changes every run).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed &+ 0x9E37_79B9_7F4A_7C15
    }

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state ^ (state >> 29)
    }
}

import CLibXML2
import Foundation
import NewsstandTestSupport
import XCTest
@testable import NewsstandContent

/// `PageTreeBuilder` builds the page tree from libxml2's SAX events; these compare it with the tree
/// copied from libxml2's own document (`htmlReadMemory`, as the builder did before) on every shared
/// Readability page and on pages built for the edges: depth and node limits, comments, scripts,
/// boolean attributes, text after `</html>`, a charset given by HTTP.
final class PageTreeBuilderTests: XCTestCase {
    /// The tree copied from libxml2's document, within the same limits (the builder's former way).
    static func copiedTree(_ data: Data, encoding: String? = nil, limits: ArticleLimits) -> PageNode {
        let root = PageNode(name: "#document")
        func append(_ text: String, to parent: PageNode) {
            guard !text.isEmpty else { return }
            if let last = parent.lastChild, last.isText { last.text += text } else { parent.append(PageNode(text: text)) }
        }
        HTMLTreeParser.withDocument(data: data, encoding: encoding) { document in
            var count = 0
            var stack: [(xmlNodePtr?, PageNode, Int)] = [(document.pointee.children, root, 1)]
            while let (next, parent, depth) = stack.popLast() {
                guard let node = next else { continue }
                stack.append((node.pointee.next, parent, depth))
                count += 1
                if count > limits.maxNodes { return }
                switch node.pointee.type {
                case XML_ELEMENT_NODE:
                    if depth > limits.maxDepth {
                        LibXMLTextWalk.forEachText(below: node) { append($0, to: parent) }
                    } else {
                        let element = PageNode(name: HTMLTreeParser.elementName(node), attributes: HTMLTreeParser.attributes(of: node))
                        parent.append(element)
                        if let child = node.pointee.children { stack.append((child, element, depth + 1)) }
                    }
                case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                    if let content = node.pointee.content { append(String(cString: content), to: parent) }
                default:
                    break
                }
            }
        }
        return root
    }

    /// The tree as lines: each node's depth, name, attributes (sorted) or text.
    static func describe(_ root: PageNode) -> [String] {
        var lines: [String] = []
        var stack: [(PageNode, Int)] = [(root, 0)]
        while let (node, depth) = stack.popLast() {
            if node.isText {
                lines.append("\(depth) #text \(node.text.debugDescription)")
            } else {
                lines.append("\(depth) <\(node.name)> " + node.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.debugDescription)" }.joined(separator: " "))
            }
            for child in node.children.reversed() { stack.append((child, depth + 1)) }
        }
        return lines
    }

    func assertSameTree(_ data: Data, encoding: String? = nil, limits: ArticleLimits = .default, _ label: String,
                        file: StaticString = #filePath, line: UInt = #line) {
        let built = Self.describe(PageTreeBuilder.build(data: data, encoding: encoding, limits: limits))
        let copied = Self.describe(Self.copiedTree(data, encoding: encoding, limits: limits))
        guard built != copied else { return }
        let first = (0..<min(built.count, copied.count)).first { built[$0] != copied[$0] } ?? min(built.count, copied.count)
        XCTFail("\(label): the trees differ at line \(first) of \(built.count) / \(copied.count): "
                + "\(first < built.count ? built[first] : "(end)") | \(first < copied.count ? copied[first] : "(end)")", file: file, line: line)
    }

    func testEveryReadabilityPageGivesLibxml2sTree() throws {
        let root = try TestFiles.corpus("readability")
        let pages = try FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: nil)
            .filter { FileManager.default.fileExists(atPath: $0.appendingPathComponent("source.html").path) }
        XCTAssertEqual(pages.count, 87)
        for page in pages {
            assertSameTree(try Data(contentsOf: page.appendingPathComponent("source.html")), page.lastPathComponent)
        }
    }

    static let edges = Data("""
        <!-- before --><!DOCTYPE html><html lang="en"><head><title>Edges &amp; more</title>
        <script>if (a < b && c) { x = "</p>"; }</script><style>p { color: red }</style><?php echo 1; ?></head>
        <body><p>one<!-- a comment -->two<b>three</b>four</p><input disabled><td nowrap>cell<div hidden>gone</div>
        <table><tr><td>a</td></tr></table><p>é ü &nbsp; &#8212; &#x1F600; text<br>after break<br><br>para</p>
        <svg:rect xml:lang="fr" DATA-X="1"></svg:rect><ul><li>one<li>two</ul><noscript><img src="a.jpg"></noscript>
        </body></html>trailing words<p>after the end</p>
        """.utf8)

    func testEdgePagesWithinLimitsGiveLibxml2sTree() {
        assertSameTree(Self.edges, "edges")
        for maxNodes in [0, 1, 2, 3, 4, 5, 7, 10, 13, 17, 25, 40, 60, 100] {
            assertSameTree(Self.edges, limits: ArticleLimits(maxNodes: maxNodes), "edges within \(maxNodes) nodes")
        }
        for maxDepth in [1, 2, 3, 4, 5, 6] {
            assertSameTree(Self.edges, limits: ArticleLimits(maxDepth: maxDepth), "edges within depth \(maxDepth)")
            assertSameTree(Self.edges, limits: ArticleLimits(maxDepth: maxDepth, maxNodes: 20), "edges within depth \(maxDepth), 20 nodes")
        }
        let deep = Data(("<html><body>" + String(repeating: "<div>x<!--c-->y<span>z</span>", count: 600) + "end" + "</body></html>").utf8)
        assertSameTree(deep, "600 deep")
        for maxNodes in [300, 1201, 1203, 1800] {
            assertSameTree(deep, limits: ArticleLimits(maxDepth: 400, maxNodes: maxNodes), "600 deep within \(maxNodes) nodes")
        }
    }

    func testCharsetGivenOrDeclared() {
        let latin1 = Data([0x3C, 0x70, 0x3E, 0x63, 0x61, 0x66, 0xE9, 0x3C, 0x2F, 0x70, 0x3E]) // <p>café</p> in Latin-1
        assertSameTree(latin1, "no charset")
        assertSameTree(latin1, encoding: "iso-8859-1", "Latin-1 from HTTP")
        let declared = Data("<html><head><meta charset=\"windows-1252\"></head><body><p>caf\u{E9} \u{F1}and\u{FA}</p></body></html>".utf8)
        assertSameTree(declared, "a meta charset the bytes do not follow")
        assertSameTree(declared, encoding: "utf-8", "UTF-8 from HTTP over a meta charset")
        let tree = PageTreeBuilder.build(data: latin1, encoding: "iso-8859-1", limits: .default)
        XCTAssertEqual(tree.elements(named: "p").first?.textContent, "café")
    }
}

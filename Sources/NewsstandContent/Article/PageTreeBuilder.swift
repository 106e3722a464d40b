import CLibXML2
import Foundation

/// Reads a web page with libxml2's HTML parser into a `PageNode` tree, within `ArticleLimits`.
///
/// Walks libxml2's tree without recursion. Elements deeper than `maxDepth` are flattened (their
/// text goes to the element at that depth); past `maxNodes` nodes the rest of the page is left
/// out. Comments and processing instructions are skipped. Escape sequences are taken out of the
/// bytes first (`HTMLTreeParser.withDocument`); text is sanitised later, when blocks are set.
enum PageTreeBuilder {
    static func build(data: Data, encoding: String?, limits: ArticleLimits) -> PageNode {
        let root = PageNode(name: "#document")
        HTMLTreeParser.withDocument(data: data, encoding: encoding) { document in
            copy(from: document.pointee.children, into: root, limits: limits)
        }
        return root
    }

    private static func copy(from first: xmlNodePtr?, into root: PageNode, limits: ArticleLimits) {
        var count = 0
        var names = NameCache()
        // (libxml2 node to read next at this level, the PageNode it goes into, its depth)
        var stack: [(xmlNodePtr?, PageNode, Int)] = [(first, root, 1)]
        while let (next, parent, depth) = stack.popLast() {
            guard let node = next else { continue }
            stack.append((node.pointee.next, parent, depth))
            count += 1
            if count > limits.maxNodes { return }
            switch node.pointee.type {
            case XML_ELEMENT_NODE:
                if depth > limits.maxDepth {
                    appendText(of: node, to: parent)
                } else {
                    let element = PageNode(name: names.elementName(node), attributes: names.attributes(of: node))
                    parent.append(element)
                    if let child = node.pointee.children { stack.append((child, element, depth + 1)) }
                }
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = node.pointee.content { appendText(String(cString: content), to: parent) }
            default:
                break
            }
        }
    }

    /// Element and attribute names as `HTMLTreeParser` reads them, each read once a page: libxml2
    /// keeps one copy of each name in the document's dictionary, so its address finds it again.
    private struct NameCache {
        var elements: [UnsafePointer<xmlChar>: String] = [:]
        var attributes: [UnsafePointer<xmlChar>: String] = [:]

        mutating func elementName(_ node: xmlNodePtr) -> String {
            guard let raw = node.pointee.name else { return "" }
            if let known = elements[raw] { return known }
            let name = HTMLTreeParser.elementName(node)
            elements[raw] = name
            return name
        }

        /// `HTMLTreeParser.attributes(of:)`, with names from the cache and one-part values read directly.
        mutating func attributes(of node: xmlNodePtr) -> [String: String] {
            var result: [String: String] = [:]
            var attribute = node.pointee.properties
            while let current = attribute {
                attribute = current.pointee.next
                guard let raw = current.pointee.name else { continue }
                var name: String
                if let known = attributes[raw] {
                    name = known
                } else {
                    name = String(cString: raw).lowercased()
                    attributes[raw] = name
                }
                if let prefix = current.pointee.ns?.pointee.prefix {
                    name = String(cString: prefix).lowercased() + ":" + name
                }
                if result[name] == nil {
                    result[name] = value(of: current)
                }
            }
            return result
        }

        private func value(of attribute: xmlAttrPtr) -> String {
            guard let first = attribute.pointee.children else { return "" }
            if first.pointee.next == nil { return first.pointee.content.map { String(cString: $0) } ?? "" }
            var text = ""
            var child: xmlNodePtr? = first
            while let current = child {
                if let content = current.pointee.content { text += String(cString: content) }
                child = current.pointee.next
            }
            return text
        }
    }

    private static func appendText(_ text: String, to parent: PageNode) {
        guard !text.isEmpty else { return }
        if let last = parent.lastChild, last.isText {
            last.text += text
        } else {
            parent.append(PageNode(text: text))
        }
    }

    /// Appends all text below `root` to `parent`, walking libxml2's subtree without recursion.
    private static func appendText(of root: xmlNodePtr, to parent: PageNode) {
        LibXMLTextWalk.forEachText(below: root) { appendText($0, to: parent) }
    }
}

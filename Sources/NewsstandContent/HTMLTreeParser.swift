import CLibXML2
import Foundation

/// Lenient HTML parsing into a `MarkupElement` tree with libxml2's HTML parser (`htmlReadMemory`),
/// the same library Foundation's XML support uses on Linux.
///
/// Never fails: unclosed tags, HTML-only entities (`&nbsp;`), stray `<` and bad nesting are
/// repaired by libxml2's recovery. The encoding is detected by libxml2 (byte-order mark,
/// `<meta charset>`); text comes out as UTF-8. Element names are lowercased local names (any
/// prefix removed); attribute names are lowercased and keep their prefix (`epub:type`). Comments
/// and processing instructions are skipped. The root is a synthetic `#document` element; nesting
/// deeper than `maxDepth` is flattened: its text goes to the element at that depth.
enum HTMLTreeParser {
    static let maxDepth = 400

    /// libxml2 must be initialised once before parsing from several threads.
    private static let initialised: Void = { newsstand_xmlInitParser() }()

    static func parse(data: Data) -> MarkupElement {
        var root = MarkupElement(name: "#document")
        withDocument(data: data) { document in
            appendChildren(of: document.pointee.children, to: &root, depth: 1)
        }
        return root
    }

    /// Parses `data` with libxml2's HTML parser and hands the document to `body` (not called when
    /// nothing could be parsed); the document is freed afterwards. `encoding` (a charset name from
    /// HTTP) overrides libxml2's own detection when given. Escape sequences are taken out first.
    static func withDocument(data: Data, encoding: String? = nil, _ body: (htmlDocPtr) -> Void) {
        _ = initialised
        // libxml2 drops ESC as an invalid character but keeps the rest of an escape sequence as text;
        // take whole sequences out first (UTF-8 input only; other encodings keep libxml2's detection).
        var data = data
        if mayHoldEscapeSequences(data), let text = String(data: data, encoding: .utf8) {
            data = Data(TextSanitizer.removingEscapeSequences(text).utf8)
        }
        guard !data.isEmpty, data.count <= Int(Int32.max) else { return }
        let options = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
                            | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue
                            | XML_PARSE_HUGE.rawValue)
        let document: htmlDocPtr? = data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self) else { return nil }
            return newsstand_htmlReadMemory(base, Int32(buffer.count), nil, encoding, options)
        }
        guard let document else { return }
        defer { newsstand_xmlFreeDoc(document) }
        body(document)
    }

    /// Whether the bytes may hold what `TextSanitizer.removingEscapeSequences` takes out: an ESC, a C1
    /// control that introduces a sequence (UTF-8 C2 90, 98, 9B, 9D, 9E, 9F) or a character reference to
    /// ESC (`&#27;`, `&#027;`, `&#x1b;`). One pass over the bytes; most pages hold none and skip the filter.
    static func mayHoldEscapeSequences(_ data: Data) -> Bool {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
            let bytes = buffer.bindMemory(to: UInt8.self)
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case 0x1B:
                    return true
                case 0xC2 where index + 1 < bytes.count:
                    switch bytes[index + 1] {
                    case 0x90, 0x98, 0x9B, 0x9D, 0x9E, 0x9F: return true
                    default: break
                    }
                case 0x26 where index + 3 < bytes.count && bytes[index + 1] == 0x23: // "&#"
                    let next = bytes[index + 2]
                    if next == 0x32 || next == 0x30 || next == 0x78 || next == 0x58 { // "2", "0", "x", "X": maybe ESC
                        let end = min(bytes.count, index + 7)
                        let reference = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self).lowercased()
                        if reference.hasPrefix("&#27;") || reference.hasPrefix("&#027;") || reference.hasPrefix("&#x1b;") { return true }
                    }
                default:
                    break
                }
                index += 1
            }
            return false
        }
    }

    /// Converts the sibling list starting at `first` and appends it to `parent`. Past `maxDepth`
    /// the children's children are appended straight to `parent` (flattened), iteratively.
    private static func appendChildren(of first: xmlNodePtr?, to parent: inout MarkupElement, depth: Int) {
        var node = first
        while let current = node {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                if depth > maxDepth {
                    appendFlattenedText(of: current, to: &parent)
                } else {
                    var element = MarkupElement(name: elementName(current), attributes: attributes(of: current))
                    appendChildren(of: current.pointee.children, to: &element, depth: depth + 1)
                    parent.children.append(.element(element))
                }
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content {
                    appendText(String(cString: content), to: &parent)
                }
            default:
                break // comments, processing instructions, DTD nodes
            }
            node = current.pointee.next
        }
    }

    /// Appends all text below `root` to `parent`, walking the subtree without recursion.
    private static func appendFlattenedText(of root: xmlNodePtr, to parent: inout MarkupElement) {
        LibXMLTextWalk.forEachText(below: root) { appendText($0, to: &parent) }
    }

    private static func appendText(_ text: String, to parent: inout MarkupElement) {
        guard !text.isEmpty else { return }
        if case .text(let previous)? = parent.children.last {
            parent.children[parent.children.count - 1] = .text(previous + text)
        } else {
            parent.children.append(.text(text))
        }
    }

    static func elementName(_ node: xmlNodePtr) -> String {
        guard let name = node.pointee.name else { return "" }
        let full = String(cString: name).lowercased()
        return full.split(separator: ":").last.map(String.init) ?? full
    }

    static func attributes(of node: xmlNodePtr) -> [String: String] {
        var result: [String: String] = [:]
        var attribute = node.pointee.properties
        while let current = attribute {
            if let rawName = current.pointee.name {
                var name = String(cString: rawName).lowercased()
                if let prefix = current.pointee.ns?.pointee.prefix {
                    name = String(cString: prefix).lowercased() + ":" + name
                }
                if result[name] == nil {
                    result[name] = value(of: current)
                }
            }
            attribute = current.pointee.next
        }
        return result
    }

    /// An attribute's value: the concatenated text of its children (entities already decoded).
    private static func value(of attribute: xmlAttrPtr) -> String {
        var text = ""
        var child = attribute.pointee.children
        while let current = child {
            if let content = current.pointee.content { text += String(cString: content) }
            child = current.pointee.next
        }
        return text
    }
}

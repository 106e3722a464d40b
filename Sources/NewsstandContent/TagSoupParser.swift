import Foundation

/// A forgiving HTML reader: never fails, and turns whatever markup it is given (unclosed
/// tags, HTML entities, stray `<`) into a `MarkupElement` tree rooted at `#document`.
///
/// It applies the few HTML tree rules that matter for reading text: void elements, a new
/// block closing an open `<p>`, a new `<li>` closing the previous one, and end tags closing
/// whatever was left open inside them. Script and style contents are kept as raw text.
enum TagSoupParser {
    static func parse(data: Data) -> MarkupElement {
        parse(text: decodeText(data))
    }

    static func parse(text: String) -> MarkupElement {
        var builder = SoupTreeBuilder()
        let bytes = Array(text.utf8)
        var tokenizer = SoupTokenizer(bytes: bytes)
        tokenizer.run(into: &builder)
        return builder.finish()
    }

    /// Decodes bytes as UTF-8 (or UTF-16 with a byte-order mark), falling back to Windows-1252.
    static func decodeText(_ data: Data) -> String {
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            if let text = String(data: data, encoding: .utf16) { return text }
        }
        var bytes = data
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if let text = String(data: bytes, encoding: .utf8) { return text }
        if let text = String(data: bytes, encoding: .windowsCP1252) { return text }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Turns bytes into start tags, end tags and text.
private struct SoupTokenizer {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    static let rawTextElements: Set<String> = ["script", "style", "textarea", "title", "xmp"]

    mutating func run(into builder: inout SoupTreeBuilder) {
        var textStart = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            let tagStart = index
            if startsWith("<!--") {
                emitText(from: textStart, to: tagStart, into: &builder)
                index = find("-->", from: index + 4).map { $0 + 3 } ?? bytes.count
                textStart = index
            } else if startsWith("<![CDATA[") {
                emitText(from: textStart, to: tagStart, into: &builder)
                let contentStart = index + 9
                let end = find("]]>", from: contentStart) ?? bytes.count
                builder.text(String(decoding: bytes[contentStart..<end], as: UTF8.self))
                index = min(end + 3, bytes.count)
                textStart = index
            } else if peek(1) == UInt8(ascii: "!") || peek(1) == UInt8(ascii: "?") {
                emitText(from: textStart, to: tagStart, into: &builder)
                index = find(">", from: index + 2).map { $0 + 1 } ?? bytes.count
                textStart = index
            } else if peek(1) == UInt8(ascii: "/"), isNameStart(peek(2)) {
                emitText(from: textStart, to: tagStart, into: &builder)
                index += 2
                let name = readName()
                index = find(">", from: index).map { $0 + 1 } ?? bytes.count
                builder.endTag(name)
                textStart = index
            } else if isNameStart(peek(1)) {
                emitText(from: textStart, to: tagStart, into: &builder)
                index += 1
                let name = readName()
                let (attributes, selfClosing) = readAttributes()
                builder.startTag(name, attributes: attributes, selfClosing: selfClosing)
                textStart = index
                if !selfClosing, Self.rawTextElements.contains(name) {
                    let end = findEndTag(name, from: index) ?? bytes.count
                    let raw = String(decoding: bytes[index..<end], as: UTF8.self)
                    builder.text(name == "title" || name == "textarea" ? HTMLEntities.decode(raw) : raw)
                    index = end
                    textStart = index
                }
            } else {
                index += 1
            }
        }
        emitText(from: textStart, to: bytes.count, into: &builder)
    }

    private func emitText(from start: Int, to end: Int, into builder: inout SoupTreeBuilder) {
        guard end > start else { return }
        builder.text(HTMLEntities.decode(String(decoding: bytes[start..<end], as: UTF8.self)))
    }

    private func peek(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private func startsWith(_ literal: String) -> Bool {
        let pattern = Array(literal.utf8)
        guard index + pattern.count <= bytes.count else { return false }
        for (offset, byte) in pattern.enumerated() where lowercased(bytes[index + offset]) != lowercased(byte) {
            return false
        }
        return true
    }

    private func find(_ literal: String, from start: Int) -> Int? {
        let pattern = Array(literal.utf8)
        guard !pattern.isEmpty, start <= bytes.count - pattern.count else { return nil }
        var position = start
        while position <= bytes.count - pattern.count {
            if bytes[position] == pattern[0], Array(bytes[position..<position + pattern.count]) == pattern {
                return position
            }
            position += 1
        }
        return nil
    }

    /// Position of `</name` (any case) at or after `start`.
    private func findEndTag(_ name: String, from start: Int) -> Int? {
        let pattern = Array("</\(name)".utf8)
        var position = start
        while position <= bytes.count - pattern.count {
            if bytes[position] == UInt8(ascii: "<") {
                var matched = true
                for offset in 1..<pattern.count where lowercased(bytes[position + offset]) != pattern[offset] {
                    matched = false
                    break
                }
                if matched { return position }
            }
            position += 1
        }
        return nil
    }

    private func lowercased(_ byte: UInt8) -> UInt8 {
        (byte >= 65 && byte <= 90) ? byte + 32 : byte
    }

    private func isNameStart(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 32 || byte == 9 || byte == 10 || byte == 13 || byte == 12
    }

    /// Reads a tag or attribute name, lowercased, with any namespace prefix removed.
    private mutating func readName() -> String {
        let start = index
        while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "/") {
            index += 1
        }
        let name = String(decoding: bytes[start..<index], as: UTF8.self).lowercased()
        return name.split(separator: ":").last.map(String.init) ?? name
    }

    private mutating func readAttributes() -> ([String: String], Bool) {
        var attributes: [String: String] = [:]
        while index < bytes.count {
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count else { break }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                return (attributes, false)
            }
            if bytes[index] == UInt8(ascii: "/") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: ">") {
                    index += 1
                    return (attributes, true)
                }
                continue
            }
            let nameStart = index
            while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "="),
                  bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "/") || index == nameStart {
                index += 1
            }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self).lowercased()
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            var value = ""
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                index += 1
                while index < bytes.count, isSpace(bytes[index]) { index += 1 }
                if index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                    let quote = bytes[index]
                    let valueStart = index + 1
                    var end = valueStart
                    while end < bytes.count, bytes[end] != quote { end += 1 }
                    value = String(decoding: bytes[valueStart..<end], as: UTF8.self)
                    index = min(end + 1, bytes.count)
                } else {
                    let valueStart = index
                    while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
                    value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                }
            }
            if !name.isEmpty, attributes[name] == nil {
                attributes[name] = HTMLEntities.decode(value)
            }
        }
        return (attributes, false)
    }
}

/// Builds the tree from soup tokens, applying implied end tags.
private struct SoupTreeBuilder {
    static let maxDepth = 400
    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
    ]
    /// Starting one of these closes an open paragraph.
    static let closesParagraph: Set<String> = [
        "address", "article", "aside", "blockquote", "div", "dl", "fieldset", "figure", "figcaption", "footer",
        "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "main", "nav", "ol", "p", "pre", "section",
        "table", "ul", "li", "dd", "dt",
    ]
    /// A search for an open element to close stops at these.
    static let scopeBoundaries: Set<String> = [
        "html", "body", "div", "td", "th", "table", "blockquote", "section", "article", "aside", "nav", "figure",
    ]

    var stack: [MarkupElement] = [MarkupElement(name: "#document")]
    var ignoredDepth = 0

    mutating func startTag(_ name: String, attributes: [String: String], selfClosing: Bool) {
        if Self.closesParagraph.contains(name) { closeOpen("p", stoppingAt: Self.scopeBoundaries.union(["li", "dd", "dt"])) }
        if name == "li" { closeOpen("li", stoppingAt: Self.scopeBoundaries.union(["ul", "ol", "menu"])) }
        if name == "dd" || name == "dt" {
            closeOpen("dd", stoppingAt: Self.scopeBoundaries.union(["dl"]))
            closeOpen("dt", stoppingAt: Self.scopeBoundaries.union(["dl"]))
        }
        if name == "tr" { closeOpen("tr", stoppingAt: ["table", "html", "body"]) }
        if name == "td" || name == "th" {
            closeOpen("td", stoppingAt: ["tr", "table", "html", "body"])
            closeOpen("th", stoppingAt: ["tr", "table", "html", "body"])
        }
        let element = MarkupElement(name: name, attributes: attributes)
        if selfClosing || Self.voidElements.contains(name) {
            stack[stack.count - 1].children.append(.element(element))
        } else if stack.count > Self.maxDepth {
            ignoredDepth += 1
        } else {
            stack.append(element)
        }
    }

    mutating func endTag(_ name: String) {
        if ignoredDepth > 0 {
            ignoredDepth -= 1
            return
        }
        guard let position = stack.lastIndex(where: { $0.name == name }), position > 0 else { return }
        while stack.count > position { popElement() }
    }

    mutating func text(_ text: String) {
        guard !text.isEmpty else { return }
        let last = stack.count - 1
        if case .text(let previous)? = stack[last].children.last {
            stack[last].children[stack[last].children.count - 1] = .text(previous + text)
        } else {
            stack[last].children.append(.text(text))
        }
    }

    private mutating func closeOpen(_ name: String, stoppingAt boundaries: Set<String>) {
        var position = stack.count - 1
        while position > 0 {
            let open = stack[position].name
            if open == name {
                while stack.count > position { popElement() }
                return
            }
            if boundaries.contains(open) { return }
            position -= 1
        }
    }

    private mutating func popElement() {
        let element = stack.removeLast()
        stack[stack.count - 1].children.append(.element(element))
    }

    mutating func finish() -> MarkupElement {
        while stack.count > 1 { popElement() }
        return stack[0]
    }
}

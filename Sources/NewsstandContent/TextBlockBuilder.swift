import Foundation

/// Walks a `MarkupElement` tree and emits `TextBlock`s, collecting inline text until a block
/// boundary and labelling it by the innermost block context (heading, list item, quote).
struct TextBlockBuilder {
    let baseURL: URL?
    private(set) var blocks: [TextBlock] = []
    private var inline = ""
    private var contexts: [Context] = []
    private var lists: [ListState] = []

    private enum Context {
        case heading(level: Int)
        case listItem(depth: Int, marker: String)
        case quote
    }

    private struct ListState {
        var ordered: Bool
        var next: Int
        var style: Character
    }

    static let dropped: Set<String> = [
        "head", "script", "style", "title", "template", "noscript", "rt", "rp", "button", "select", "input",
        "textarea", "iframe", "object", "audio", "video", "canvas", "map", "link", "meta",
    ]
    static let blockContainers: Set<String> = [
        "html", "body", "p", "div", "section", "article", "aside", "header", "footer", "main", "nav", "figure",
        "figcaption", "address", "dl", "dt", "dd", "table", "thead", "tbody", "tfoot", "tr", "caption", "center",
        "details", "summary", "fieldset", "legend", "form", "hgroup", "svg",
    ]

    init(baseURL: URL?) {
        self.baseURL = baseURL
    }

    mutating func add(_ element: MarkupElement) {
        for child in element.children {
            switch child {
            case .text(let text): appendInline(text)
            case .element(let child): addElement(child)
            }
        }
    }

    private mutating func addElement(_ element: MarkupElement) {
        let name = element.name
        if Self.dropped.contains(name) { return }
        switch name {
        case "br":
            while inline.hasSuffix(" ") { inline.removeLast() }
            inline.append("\n")
        case "hr":
            flush()
            blocks.append(.rule)
        case "img", "image":
            addImage(element)
        case "pre", "listing", "xmp", "plaintext":
            flush()
            var text = Self.verbatimText(of: element)
            if text.hasPrefix("\r\n") { text.removeFirst() } else if text.hasPrefix("\n") { text.removeFirst() }
            while let last = text.last, last == "\n" || last == "\r\n" || last == " " || last == "\t" { text.removeLast() }
            if !text.isEmpty { blocks.append(.preformatted(text)) }
        case "h1", "h2", "h3", "h4", "h5", "h6":
            flush()
            contexts.append(.heading(level: Int(String(name.dropFirst()))!))
            add(element)
            flush()
            contexts.removeLast()
        case "ul", "ol", "menu", "dir":
            flush()
            let ordered = name == "ol"
            let start = element.attribute("start").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 1
            let style = element.attribute("type")?.first ?? "1"
            lists.append(ListState(ordered: ordered, next: start, style: style))
            add(element)
            flush()
            lists.removeLast()
        case "li":
            flush()
            let depth = max(lists.count - 1, 0)
            var marker = "•"
            if var list = lists.last, list.ordered {
                if let value = element.attribute("value").flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
                    list.next = value
                }
                marker = Self.orderedMarker(list.next, style: list.style)
                list.next += 1
                lists[lists.count - 1] = list
            }
            contexts.append(.listItem(depth: depth, marker: marker))
            add(element)
            flush()
            contexts.removeLast()
        case "blockquote":
            flush()
            contexts.append(.quote)
            add(element)
            flush()
            contexts.removeLast()
        case "td", "th":
            add(element)
            appendInline(" ")
        default:
            if Self.blockContainers.contains(name) {
                flush()
                add(element)
                flush()
            } else {
                add(element)
            }
        }
    }

    private mutating func addImage(_ element: MarkupElement) {
        flush()
        let reference = element.attribute("src") ?? element.attribute("href")
        let alt = WhitespaceCollapsing.collapse(element.attribute("alt") ?? element.attribute("title") ?? "")
        blocks.append(.image(source: reference.flatMap(resolve), alt: alt))
    }

    private func resolve(_ reference: String) -> URL? {
        let trimmed = reference.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty || trimmed.lowercased().hasPrefix("data:") { return nil }
        if let url = URL(string: trimmed, relativeTo: baseURL) { return url.absoluteURL }
        var allowed = CharacterSet.urlPathAllowed
        allowed.insert(charactersIn: "#?%")
        guard let encoded = trimmed.addingPercentEncoding(withAllowedCharacters: allowed) else { return nil }
        return URL(string: encoded, relativeTo: baseURL)?.absoluteURL
    }

    private mutating func appendInline(_ text: String) {
        for character in text {
            if WhitespaceCollapsing.isCollapsible(character) {
                if let last = inline.last, last != " ", last != "\n" { inline.append(" ") }
            } else {
                inline.append(character)
            }
        }
    }

    /// Emits the collected inline text as a block of the innermost context.
    mutating func flush() {
        var text = inline
        inline = ""
        while let first = text.first, first == " " || first == "\n" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\n" { text.removeLast() }
        guard text.contains(where: { !$0.isWhitespace }) else { return }
        switch contexts.last {
        case .heading(let level):
            blocks.append(.heading(level: level, text: text))
        case .listItem(let depth, let marker):
            blocks.append(.listItem(depth: depth, marker: marker, text: text))
            contexts[contexts.count - 1] = .listItem(depth: depth, marker: "")
        case .quote:
            blocks.append(.quote(text))
        case nil:
            blocks.append(.paragraph(text))
        }
    }

    /// Text of a `<pre>` with `<br>` turned into line breaks and nothing collapsed.
    static func verbatimText(of element: MarkupElement) -> String {
        var text = ""
        for child in element.children {
            switch child {
            case .text(let run): text += run
            case .element(let inner):
                if inner.name == "br" { text += "\n" } else if !dropped.contains(inner.name) { text += verbatimText(of: inner) }
            }
        }
        return text
    }

    static func orderedMarker(_ number: Int, style: Character) -> String {
        switch style {
        case "a", "A":
            guard number > 0 else { return "\(number)." }
            var value = number
            var letters = ""
            while value > 0 {
                value -= 1
                letters = String(UnicodeScalar(UInt8(97 + value % 26))) + letters
                value /= 26
            }
            return (style == "A" ? letters.uppercased() : letters) + "."
        case "i", "I":
            guard number > 0, number < 4000 else { return "\(number)." }
            let numerals: [(Int, String)] = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
                                             (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]
            var value = number
            var roman = ""
            for (amount, symbol) in numerals {
                while value >= amount {
                    roman += symbol
                    value -= amount
                }
            }
            return (style == "I" ? roman.uppercased() : roman) + "."
        default:
            return "\(number)."
        }
    }
}

extension TextBlockBuilder {
    /// The text a reader would see in an element: everything except dropped elements (ruby
    /// annotations, scripts, ...), not yet collapsed.
    static func readableText(of element: MarkupElement) -> String {
        var text = ""
        for child in element.children {
            switch child {
            case .text(let run): text += run
            case .element(let inner) where !dropped.contains(inner.name): text += readableText(of: inner)
            case .element: break
            }
        }
        return text
    }
}

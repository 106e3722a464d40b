import Foundation

/// Walks a `MarkupElement` tree and emits `TextBlock`s, collecting styled inline text until a
/// block boundary and labelling it by the innermost block context (heading, list item, quote,
/// caption). Links to other resources are numbered (`text[N]`); footnotes are left out of the
/// running text, marked `[^N]` where they are referenced, and emitted as `.footnote` blocks at the end.
/// Every piece of text from the document goes through `TextSanitizer`.
struct TextBlockBuilder {
    let baseURL: URL?
    private(set) var blocks: [TextBlock] = []
    private var inline = StyledText([])
    private var contexts: [Context] = []
    private var lists: [ListState] = []
    private var style: InlineStyle = []
    private var link: TextLink?
    private var path: [Int] = []
    private var footnotes = FootnoteIndex(root: MarkupElement(name: "#document"))
    /// Note element path → note number, in order of first reference.
    private var noteNumbers: [[Int]: Int] = [:]
    private var linkNumbers: [URL: Int] = [:]
    /// Above zero while a note's own text is being set.
    private var noteDepth = 0

    private enum Context {
        case heading(level: Int)
        case listItem(depth: Int, marker: String)
        case quote
        case caption
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
        "address", "dl", "dt", "dd", "table", "thead", "tbody", "tfoot", "tr", "center",
        "details", "summary", "fieldset", "legend", "form", "hgroup", "svg",
    ]
    static let inlineStyles: [String: InlineStyle] = [
        "b": .bold, "strong": .bold, "i": .italic, "em": .italic, "cite": .italic, "var": .italic, "dfn": .italic,
        "u": .underline, "ins": .underline, "code": .code, "kbd": .code, "samp": .code, "tt": .code,
    ]

    init(baseURL: URL?) {
        self.baseURL = baseURL
    }

    /// Sets a whole document: its blocks, then its notes.
    mutating func addDocument(_ root: MarkupElement) {
        footnotes = FootnoteIndex(root: root)
        add(root)
        flush()
        // Notes nobody references (an EPUB 3 footnote aside on its own) come after the referenced ones.
        for note in footnotes.notes where noteNumbers[note] == nil { noteNumbers[note] = noteNumbers.count + 1 }
        let ordered = noteNumbers.sorted { $0.value < $1.value }
        for (notePath, number) in ordered {
            let text = noteText(FootnoteIndex.element(at: notePath, in: root), path: notePath)
            blocks.append(.footnote(number: number, text: text.isEmpty ? "" : text))
        }
    }

    mutating func add(_ element: MarkupElement) {
        for (index, child) in element.children.enumerated() {
            path.append(index)
            switch child {
            case .text(let text): appendInline(text)
            case .element(let child):
                if noteDepth > 0 || !footnotes.isNote(path) { addElement(child) }
            }
            path.removeLast()
        }
    }

    private mutating func addElement(_ element: MarkupElement) {
        let name = element.name
        if Self.dropped.contains(name) { return }
        if let extra = Self.inlineStyles[name] {
            let saved = style
            style.formUnion(extra)
            add(element)
            style = saved
            return
        }
        switch name {
        case "a":
            addAnchor(element)
        case "br":
            trimTrailingSpaces()
            appendRaw("\n")
        case "hr":
            flush()
            blocks.append(.rule)
        case "img", "image":
            addImage(element)
        case "pre", "listing", "xmp", "plaintext":
            flush()
            var text = Self.verbatimText(of: element)
            if text.hasPrefix("\r\n") { text.removeFirst() } else if text.hasPrefix("\n") { text.removeFirst() }
            text = TextSanitizer.sanitize(Self.expandingTabs(text))
            while let last = text.last, last == "\n" || last == " " { text.removeLast() }
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
        case "figcaption", "caption":
            flush()
            contexts.append(.caption)
            add(element)
            flush()
            contexts.removeLast()
        case "table":
            addTable(element)
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

    // MARK: Links and note references

    private mutating func addAnchor(_ element: MarkupElement) {
        if noteDepth > 0 {
            // A note's way back to its reference ("↩", "1.") is no use at the end of the article.
            if let href = element.attribute("href"), href.hasPrefix("#"),
               WhitespaceCollapsing.collapse(Self.readableText(of: element)).count <= 6 { return }
        } else if footnotes.references[path] != nil {
            let note = footnotes.references[path]!
            let number = noteNumbers[note] ?? (noteNumbers.count + 1)
            noteNumbers[note] = number
            inline.append(StyledRun("[^\(number)]", style: style, footnote: number))
            return
        }
        guard link == nil, let href = element.attribute("href"), let url = resolve(href),
              let scheme = url.scheme?.lowercased(), scheme != "file" else {
            add(element)
            return
        }
        let number = linkNumbers[url] ?? (linkNumbers.count + 1)
        linkNumbers[url] = number
        let textLink = TextLink(number: number, url: url)
        let before = inline.plainText.count
        link = textLink
        add(element)
        link = nil
        if inline.plainText.count > before {
            trimTrailingSpaces()
            inline.append(StyledRun("[\(number)]", link: textLink))
        }
    }

    // MARK: Images and tables

    private mutating func addImage(_ element: MarkupElement) {
        flush()
        let reference = element.attribute("src") ?? element.attribute("href")
        let alt = TextSanitizer.singleLine(element.attribute("alt") ?? element.attribute("title") ?? "")
        blocks.append(.image(source: reference.flatMap(resolve), alt: alt))
    }

    /// A table of rows and cells; a table used for page layout (nested tables, one column) is
    /// read as its blocks instead.
    private mutating func addTable(_ element: MarkupElement) {
        flush()
        var rows: [(cells: [MarkupElement], header: Bool)] = []
        var caption: MarkupElement?
        func collect(_ parent: MarkupElement, inHead: Bool) {
            for child in parent.childElements {
                switch child.name {
                case "caption": caption = caption ?? child
                case "thead": collect(child, inHead: true)
                case "tbody", "tfoot": collect(child, inHead: false)
                case "tr":
                    let cells = child.childElements.filter { $0.name == "td" || $0.name == "th" }
                    if !cells.isEmpty { rows.append((cells, inHead || cells.allSatisfy { $0.name == "th" })) }
                default: break
                }
            }
        }
        collect(element, inHead: false)
        let columns = rows.map(\.cells.count).max() ?? 0
        let nested = element.firstDescendant(where: { $0.name != "table" && ["table", "pre", "ul", "ol", "blockquote"].contains($0.name) }) != nil
        if columns < 2 || nested || noteDepth > 0 {
            flush()
            add(element)
            flush()
            return
        }
        if let caption {
            contexts.append(.caption)
            add(caption)
            flush()
            contexts.removeLast()
        }
        var headerRows = 0
        while headerRows < rows.count, rows[headerRows].header { headerRows += 1 }
        if headerRows == rows.count { headerRows = min(1, rows.count) }
        var tableRows: [[StyledText]] = []
        for row in rows {
            var cells: [StyledText] = []
            for cell in row.cells {
                let savedStyle = style
                if cell.name == "th" { style.insert(.bold) }
                cells.append(fragmentText(cell))
                style = savedStyle
            }
            tableRows.append(cells)
        }
        blocks.append(.table(TextTable(rows: tableRows, headerRowCount: headerRows)))
    }

    /// Sets an element on its own (a table cell, a note) and returns its text, its blocks joined by line breaks.
    private mutating func fragmentText(_ element: MarkupElement, separator: String = " ") -> StyledText {
        let saved = (blocks, inline, contexts, lists)
        blocks = []
        inline = StyledText([])
        contexts = []
        add(element)
        flush()
        var text = StyledText([])
        for block in blocks {
            let part: StyledText
            switch block {
            case .heading(_, let run), .paragraph(let run), .listItem(_, _, let run), .quote(let run), .caption(let run), .footnote(_, let run):
                part = run
            case .preformatted(let verbatim): part = StyledText(verbatim, style: .code)
            case .image(_, let alt): part = StyledText(alt.isEmpty ? "[picture]" : "[picture: \(alt)]")
            case .table(let table): part = StyledText(table.rows.map { $0.map(\.plainText).joined(separator: " ") }.joined(separator: " "))
            case .rule: continue
            }
            if !text.isEmpty { text.append(StyledRun(separator, style: [])) }
            text.append(part)
        }
        (blocks, inline, contexts, lists) = saved
        return text
    }

    private mutating func noteText(_ element: MarkupElement, path notePath: [Int]) -> StyledText {
        let savedPath = path
        path = notePath
        noteDepth += 1
        let savedStyle = style
        style = []
        var text = fragmentText(element, separator: "\n")
        style = savedStyle
        noteDepth -= 1
        path = savedPath
        // A leading "1." or "[1]" repeats the number the note is listed under.
        if let first = text.runs.first {
            let words = first.text.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            if words.count == 2, Self.isNoteNumberLabel(String(words[0])) {
                text = StyledText([StyledRun(String(words[1]), style: first.style, link: first.link, footnote: first.footnote)] + text.runs.dropFirst())
            }
        }
        return text
    }

    private static func isNoteNumberLabel(_ word: String) -> Bool {
        let core = word.trimmingCharacters(in: CharacterSet(charactersIn: "[]().:*†‡"))
        return word.count <= 6 && (core.isEmpty || core.allSatisfy(\.isNumber))
    }

    private func resolve(_ reference: String) -> URL? {
        let trimmed = TextSanitizer.singleLine(reference)
        if trimmed.isEmpty || trimmed.lowercased().hasPrefix("data:") { return nil }
        if let url = URL(string: trimmed, relativeTo: baseURL) { return url.absoluteURL }
        var allowed = CharacterSet.urlPathAllowed
        allowed.insert(charactersIn: "#?%")
        guard let encoded = trimmed.addingPercentEncoding(withAllowedCharacters: allowed) else { return nil }
        return URL(string: encoded, relativeTo: baseURL)?.absoluteURL
    }

    // MARK: Inline text

    private mutating func appendInline(_ text: String) {
        var collected = ""
        var last = inline.runs.last?.text.last
        for character in TextSanitizer.sanitize(text) {
            if WhitespaceCollapsing.isCollapsible(character) {
                if let previous = collected.last ?? last, previous != " ", previous != "\n" { collected.append(" ") }
            } else {
                collected.append(character)
            }
            last = collected.last ?? last
        }
        appendRaw(collected)
    }

    private mutating func appendRaw(_ text: String) {
        inline.append(StyledRun(text, style: style, link: link))
    }

    private mutating func trimTrailingSpaces() {
        var runs = inline.runs
        while let lastRun = runs.last, lastRun.text.hasSuffix(" ") {
            runs[runs.count - 1].text.removeLast()
            if runs[runs.count - 1].text.isEmpty { runs.removeLast() }
        }
        inline = StyledText(runs)
    }

    /// Emits the collected inline text as a block of the innermost context.
    mutating func flush() {
        let text = inline.trimmed()
        inline = StyledText([])
        guard text.plainText.contains(where: { !$0.isWhitespace }) else { return }
        switch contexts.last {
        case .heading(let level):
            blocks.append(.heading(level: level, text: text))
        case .listItem(let depth, let marker):
            blocks.append(.listItem(depth: depth, marker: marker, text: text))
            contexts[contexts.count - 1] = .listItem(depth: depth, marker: "")
        case .quote:
            blocks.append(.quote(text))
        case .caption:
            blocks.append(.caption(text))
        case nil:
            blocks.append(.paragraph(text))
        }
    }

    // MARK: Verbatim text and markers

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

    /// Tabs become spaces up to the next multiple of 4 columns.
    static func expandingTabs(_ text: String) -> String {
        guard text.contains("\t") else { return text }
        var result = ""
        var column = 0
        for character in text {
            switch character {
            case "\t":
                let spaces = 4 - column % 4
                result += String(repeating: " ", count: spaces)
                column += spaces
            case "\n", "\r\n", "\r":
                result.append(character)
                column = 0
            default:
                result.append(character)
                column += DisplayWidth.of(character)
            }
        }
        return result
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

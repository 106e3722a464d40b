import Foundation
import NewsstandContent
import NewsstandCore

/// An article's blocks set as lines for a given width: a centred measure, wrapped styled
/// paragraphs, headings, indented lists and quotes, verbatim preformatted text, tables in
/// columns, and the article's notes and links collected at the end.
///
/// Each line remembers the block it came from and how far into it it starts, so a position can be
/// kept as "block N, character C" and the same line found again after the width changes.
public struct ArticleLayout: Equatable, Sendable {
    /// One line of set text: styled spans over the theme element `element`.
    public struct Line: Equatable, Sendable {
        /// The line's text in runs; a run's `style` adds attributes to the element's style, a run
        /// with a `link` is drawn as the theme's `link`.
        public var spans: [StyledRun]
        public var element: ThemeElement
        /// Columns from the measure's left edge.
        public var indent: Int
        public var blockIndex: Int
        /// Characters of the block's own text before this line, other than white space and decoration
        /// (a line with none, such as a blank line or a rule, counts one): the same at any width (see
        /// `ReadingPosition`).
        public var offsetInBlock = 0
        /// The line goes on with the running text of the line before: it is where that text wrapped.
        public var continuesPrevious = false
        /// Where the text wrapped onto this line, white space was dropped (not so where a long word
        /// or East Asian text was split), so the two lines read as one with a space between.
        public var followsSpace = false
        /// UTF-16 units at the start of `text` that are decoration, not the block's text: a quote bar,
        /// a list marker or hanging indent, or the whole of a rule.
        public var leadLength = 0
        /// Set on every line of an image's placeholder: a front end may paint the picture over
        /// these lines (from `indent`, `measure - indent` columns wide); until then they show `[picture: alt]`.
        public var imageSource: URL?

        public init(spans: [StyledRun], element: ThemeElement, indent: Int = 0, blockIndex: Int, imageSource: URL? = nil) {
            self.spans = spans
            self.element = element
            self.indent = indent
            self.blockIndex = blockIndex
            self.imageSource = imageSource
        }

        /// The line's text without styles.
        public var text: String { spans.map(\.text).joined() }

        /// `text` without its decoration (`leadLength`).
        public var runningText: String {
            let text = text
            guard leadLength > 0 else { return text }
            return String(text[String.Index(utf16Offset: min(leadLength, text.utf16.count), in: text)...])
        }
    }

    public let width: Int
    /// Columns of text per line (at most the configured measure).
    public let measure: Int
    /// Left margin that centres the measure in the width.
    public let margin: Int
    public let lines: [Line]
    /// Words from each line to the end (one more entry, 0, past the last line): what is left to read below a line.
    public let wordsFromLine: [Int]
    /// The article's numbered links: link N (`text[N]`) is `links[N - 1]`.
    public let links: [URL]
    private let firstLineOfBlock: [Int]

    /// The longest comfortable line.
    public static let defaultMeasure = 72

    /// Sets `blocks` for a window `width` columns wide, in a measure of at most `maximumMeasure`
    /// columns. An image with a source takes `pictureHeight` lines (at least its label's).
    public init(blocks: [TextBlock], width: Int, maximumMeasure: Int = ArticleLayout.defaultMeasure, pictureHeight: Int = 1) {
        self.width = width
        let measure = max(1, min(width - 2, maximumMeasure))
        self.measure = measure
        margin = max(0, (width - measure) / 2)
        var setter = Setter(measure: measure, pictureHeight: max(1, pictureHeight))
        var firstLines = Array(repeating: 0, count: blocks.count)
        var notes: [(Int, Int, StyledText)] = []
        for (index, block) in blocks.enumerated() {
            if case .footnote(let number, let text) = block {
                notes.append((index, number, text))
                continue
            }
            firstLines[index] = setter.lines.count
            let next = index + 1 < blocks.count ? blocks[index + 1] : nil
            setter.set(block, index: index, followedByListItem: next.map(Self.isListItem) ?? false)
        }
        let lastBlock = max(0, blocks.count - 1)
        if !notes.isEmpty {
            setter.sectionTitle("Notes", block: notes[0].0)
            for (index, number, text) in notes.sorted(by: { $0.1 < $1.1 }) {
                firstLines[index] = setter.lines.count
                setter.hanging(StyledRun("[^\(number)]", footnote: number), text, element: .text, block: index)
            }
        }
        var linkTable: [Int: URL] = [:]
        for block in blocks {
            for run in Self.runs(of: block) { if let link = run.link, linkTable[link.number] == nil { linkTable[link.number] = link.url } }
        }
        let numbers = linkTable.keys.sorted()
        links = numbers.map { linkTable[$0]! }
        if !numbers.isEmpty {
            setter.sectionTitle("Links", block: lastBlock)
            for number in numbers {
                let url = linkTable[number]!
                let shown = TextSanitizer.singleLine(url.absoluteString)
                setter.hanging(StyledRun("[\(number)]"), StyledText([StyledRun(shown, link: TextLink(number: number, url: url))]),
                               element: .text, block: lastBlock)
            }
        }
        var lines = setter.lines
        while let last = lines.last, last.text.isEmpty, last.imageSource == nil { lines.removeLast() }
        var offsets: [Int: Int] = [:]
        for index in lines.indices {
            let block = lines[index].blockIndex
            lines[index].offsetInBlock = offsets[block, default: 0]
            offsets[block, default: 0] += Self.characterCount(of: lines[index])
        }
        self.lines = lines
        var words = Array(repeating: 0, count: lines.count + 1)
        for index in lines.indices.reversed() {
            words[index] = words[index + 1] + lines[index].spans.reduce(0) { $0 + $1.text.split(whereSeparator: \.isWhitespace).count }
        }
        wordsFromLine = words
        firstLineOfBlock = firstLines
    }

    /// What a line adds to `offsetInBlock`: its text's characters after the decoration, other than
    /// white space; one for a line with none (a blank line, a rule), so every line has its own offset.
    private static func characterCount(of line: Line) -> Int {
        max(1, line.runningText.unicodeScalars.count { !$0.properties.isWhitespace })
    }

    private static func isListItem(_ block: TextBlock) -> Bool {
        if case .listItem = block { return true }
        return false
    }

    private static func runs(of block: TextBlock) -> [StyledRun] {
        switch block {
        case .heading(_, let text), .paragraph(let text), .listItem(_, _, let text), .quote(let text), .caption(let text),
             .footnote(_, let text):
            return text.runs
        case .table(let table): return table.rows.flatMap { $0.flatMap(\.runs) }
        case .preformatted, .image, .rule: return []
        }
    }

    /// The first line of a block (the end for blocks past the last).
    public func line(forBlock block: Int) -> Int {
        guard !firstLineOfBlock.isEmpty else { return 0 }
        return min(firstLineOfBlock[min(max(0, block), firstLineOfBlock.count - 1)], max(0, lines.count - 1))
    }

    /// The line that shows `position`'s place in its block: the block's last line starting at or before
    /// the position's character offset (a block's lines may stand apart, as a note's section title does).
    public func line(for position: ReadingPosition) -> Int {
        var found: Int?
        for (index, line) in lines.enumerated() where line.blockIndex == position.blockIndex && line.offsetInBlock <= position.characterOffset {
            if let best = found, lines[best].offsetInBlock >= line.offsetInBlock { continue }
            found = index
        }
        return found ?? line(forBlock: position.blockIndex)
    }

    /// The width-independent place of `line` in article `articleIndex`.
    public func position(atLine line: Int, articleIndex: Int) -> ReadingPosition {
        guard !lines.isEmpty else { return ReadingPosition(articleIndex: articleIndex, blockIndex: 0) }
        let shown = lines[min(max(0, line), lines.count - 1)]
        return ReadingPosition(articleIndex: articleIndex, blockIndex: shown.blockIndex, characterOffset: shown.offsetInBlock)
    }

    /// The set text without styles, one string per line, indented but not centred (for `read --plain`).
    public var plainLines: [String] {
        lines.map { String(repeating: " ", count: $0.indent) + $0.text }
    }
}

/// Sets blocks into lines, one after another.
private struct Setter {
    let measure: Int
    let pictureHeight: Int
    var lines: [ArticleLayout.Line] = []

    mutating func add(_ spans: [StyledRun], _ element: ThemeElement, indent: Int = 0, block: Int, image: URL? = nil, lead: Int = 0,
                      continues: Bool = false, followsSpace: Bool = false) {
        var line = ArticleLayout.Line(spans: spans, element: element, indent: indent, blockIndex: block, imageSource: image)
        line.leadLength = lead
        line.continuesPrevious = continues
        line.followsSpace = followsSpace
        lines.append(line)
    }

    /// Wraps `text` to `width` columns and adds its lines, each after the first continuing the one
    /// before, with `lead(n)` as the decoration in front of line n; returns the wrapped lines.
    @discardableResult
    mutating func addWrapped(_ text: StyledText, width: Int, _ element: ThemeElement, indent: Int = 0, block: Int,
                             lead: (Int) -> [StyledRun] = { _ in [] }) -> [StyledTextWrapper.Line] {
        let wrapped = StyledTextWrapper.wrapLines(text, width: max(1, width))
        for (offset, line) in wrapped.enumerated() {
            let decoration = lead(offset)
            add(decoration + line.runs, element, indent: indent, block: block, lead: decoration.map(\.text.utf16.count).reduce(0, +),
                continues: offset > 0, followsSpace: line.followsSpace)
        }
        return wrapped
    }

    /// A line that is all decoration (a rule): it adds nothing to the block's text.
    mutating func rule(_ text: String, _ element: ThemeElement, block: Int) {
        add([StyledRun(text)], element, block: block, lead: text.utf16.count)
    }

    mutating func add(_ text: String, _ element: ThemeElement, indent: Int = 0, block: Int) {
        add(text.isEmpty ? [] : [StyledRun(text)], element, indent: indent, block: block)
    }

    mutating func blank(_ block: Int) {
        if let last = lines.last, !last.text.isEmpty || last.element == .code || last.imageSource != nil { add("", .text, block: block) }
    }

    mutating func set(_ block: TextBlock, index: Int, followedByListItem: Bool) {
        switch block {
        case .heading(let level, let text):
            if !lines.isEmpty { blank(index) }
            let wrapped = addWrapped(level == 1 ? text.mapText { $0.uppercased() } : text, width: measure, .heading, block: index)
            if level <= 2 {
                let ruleWidth = min(measure, wrapped.map { DisplayWidth.of($0.runs.map(\.text).joined()) }.max() ?? 0)
                rule(String(repeating: level == 1 ? "━" : "─", count: ruleWidth), .heading, block: index)
            }
            add("", .text, block: index)
        case .paragraph(let text):
            addWrapped(text, width: measure, .text, block: index)
            add("", .text, block: index)
        case .listItem(let depth, let marker, let text):
            let indent = min(measure / 2, 2 * max(0, depth))
            let hanging = DisplayWidth.of(marker) + 1
            addWrapped(text, width: measure - indent - hanging, .text, indent: indent, block: index) { offset in
                [StyledRun(offset == 0 ? marker + " " : String(repeating: " ", count: hanging))]
            }
            if !followedByListItem { add("", .text, block: index) }
        case .quote(let text):
            addWrapped(text, width: measure - 4, .quote, indent: 2, block: index) { _ in [StyledRun("│ ")] }
            add("", .text, block: index)
        case .caption(let text):
            addWrapped(text, width: measure - 4, .quote, indent: 2, block: index)
            add("", .text, block: index)
        case .preformatted(let text):
            // Verbatim: never wrapped; the screen clips what does not fit.
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                add(String(line).replacingOccurrences(of: "\t", with: "    "), .code, indent: 2, block: index)
            }
            add("", .text, block: index)
        case .image(let source, let alt):
            let label = alt.isEmpty ? "[picture]" : "[picture: \(alt)]"
            let wrapped = TextWrapper.wrap(label, width: measure)
            let height = source == nil ? wrapped.count : max(pictureHeight, wrapped.count)
            for row in 0..<height {
                add(row < wrapped.count ? [StyledRun(wrapped[row])] : [], .quote, block: index, image: source)
            }
            add("", .text, block: index)
        case .table(let table):
            setTable(table, block: index)
            add("", .text, block: index)
        case .footnote(let number, let text):
            hanging(StyledRun("[^\(number)]", footnote: number), text, element: .text, block: index)
        case .rule:
            let stars = "*   *   *"
            rule(String(repeating: " ", count: max(0, (measure - stars.count) / 2)) + stars, .text, block: index)
            add("", .text, block: index)
        }
    }

    /// A heading for the notes or links at the end of the article.
    mutating func sectionTitle(_ title: String, block: Int) {
        if !lines.isEmpty { blank(block) }
        add(title, .heading, block: block)
        rule(String(repeating: "─", count: min(measure, DisplayWidth.of(title))), .heading, block: block)
    }

    /// `label` then `text` wrapped beside it with a hanging indent.
    mutating func hanging(_ label: StyledRun, _ text: StyledText, element: ThemeElement, block: Int) {
        let hang = DisplayWidth.of(label.text) + 1
        let fits = hang < measure / 2
        if !fits { add([label], element, block: block, lead: label.text.utf16.count) }
        addWrapped(text, width: fits ? measure - hang : measure, element, block: block) { offset in
            !fits ? [] : offset == 0 ? [label, StyledRun(" ")] : [StyledRun(String(repeating: " ", count: hang))]
        }
    }

    /// Columns sized from their content, shrunk to the measure when too wide, cells wrapped inside
    /// their column, and a rule under the header rows.
    mutating func setTable(_ table: TextTable, block: Int) {
        let columns = table.columnCount
        guard columns > 0 else { return }
        let gap = 2
        let widths = Self.columnWidths(table, available: max(columns, measure - gap * (columns - 1)))
        let totalWidth = widths.reduce(0, +) + gap * (columns - 1)
        for (rowIndex, row) in table.rows.enumerated() {
            let cells = (0..<columns).map { column in
                column < row.count ? StyledTextWrapper.wrap(row[column], width: widths[column]) : [[]]
            }
            let height = cells.map(\.count).max() ?? 1
            for lineIndex in 0..<height {
                var spans: [StyledRun] = []
                var used = 0
                var start = 0
                for column in 0..<columns {
                    let cellLine = lineIndex < cells[column].count ? cells[column][lineIndex] : []
                    if !cellLine.isEmpty {
                        if used < start { spans.append(StyledRun(String(repeating: " ", count: start - used))) }
                        spans += cellLine
                        used = max(used, start) + DisplayWidth.of(cellLine.map(\.text).joined())
                    }
                    start += widths[column] + gap
                }
                add(StyledText(spans).runs, .text, block: block)
            }
            if rowIndex + 1 == table.headerRowCount {
                rule(String(repeating: "─", count: min(totalWidth, max(1, measure))), .text, block: block)
            }
        }
    }

    /// Natural widths when they fit; otherwise narrow columns keep theirs and the rest share what
    /// is left in proportion to their natural widths.
    static func columnWidths(_ table: TextTable, available: Int) -> [Int] {
        let columns = table.columnCount
        var natural = Array(repeating: 1, count: columns)
        for row in table.rows {
            for (column, cell) in row.enumerated() {
                let widest = cell.plainText.split(separator: "\n").map { DisplayWidth.of($0) }.max() ?? 0
                natural[column] = max(natural[column], widest)
            }
        }
        if natural.reduce(0, +) <= available { return natural }
        var widths = Array(repeating: 0, count: columns)
        let fairShare = available / columns
        var remaining = available
        var wide: [Int] = []
        for column in 0..<columns {
            if natural[column] <= fairShare {
                widths[column] = natural[column]
                remaining -= natural[column]
            } else {
                wide.append(column)
            }
        }
        let wideTotal = wide.map { natural[$0] }.reduce(0, +)
        var given = 0
        for column in wide {
            widths[column] = max(1, natural[column] * remaining / max(1, wideTotal))
            given += widths[column]
        }
        // Hand out the columns lost to rounding, widest first.
        var leftover = remaining - given
        for column in wide.sorted(by: { natural[$0] > natural[$1] }) where leftover > 0 {
            widths[column] += 1
            leftover -= 1
        }
        return widths
    }
}

import NewsstandContent

/// An article's blocks set as lines for a given width: a centred measure, wrapped paragraphs,
/// headings, indented lists and quotes, verbatim preformatted text.
///
/// Each line remembers the block it came from, so a position can be kept as "block N"
/// and found again after the width changes.
public struct ArticleLayout: Equatable, Sendable {
    /// One line of set text.
    public struct Line: Equatable, Sendable {
        public var text: String
        public var element: ThemeElement
        /// Columns from the measure's left edge.
        public var indent: Int
        public var blockIndex: Int
    }

    public let width: Int
    /// Columns of text per line (at most the configured measure).
    public let measure: Int
    /// Left margin that centres the measure in the width.
    public let margin: Int
    public let lines: [Line]
    private let firstLineOfBlock: [Int]

    /// The longest comfortable line.
    public static let defaultMeasure = 72

    public init(blocks: [TextBlock], width: Int, maximumMeasure: Int = ArticleLayout.defaultMeasure) {
        self.width = width
        measure = max(1, min(width - 2, maximumMeasure))
        margin = max(0, (width - measure) / 2)
        var lines: [Line] = []
        var firstLines: [Int] = []
        let measure = self.measure
        func add(_ text: String, _ element: ThemeElement, indent: Int = 0, block: Int) {
            lines.append(Line(text: text, element: element, indent: indent, blockIndex: block))
        }
        func blank(_ block: Int) {
            if let last = lines.last, !last.text.isEmpty || last.element == .code { add("", .text, block: block) }
        }
        for (index, block) in blocks.enumerated() {
            firstLines.append(lines.count)
            switch block {
            case .heading(let level, let text):
                if !lines.isEmpty { blank(index) }
                let wrapped = TextWrapper.wrap(level == 1 ? text.uppercased() : text, width: measure)
                for line in wrapped { add(line, .heading, block: index) }
                if level <= 2 {
                    let ruleWidth = min(measure, wrapped.map { DisplayWidth.of($0) }.max() ?? 0)
                    add(String(repeating: level == 1 ? "━" : "─", count: ruleWidth), .heading, block: index)
                }
                add("", .text, block: index)
            case .paragraph(let text):
                for line in TextWrapper.wrap(text, width: measure) { add(line, .text, block: index) }
                add("", .text, block: index)
            case .listItem(let depth, let marker, let text):
                let indent = min(measure / 2, 2 * max(0, depth))
                let hanging = DisplayWidth.of(marker) + 1
                let wrapped = TextWrapper.wrap(text, width: max(1, measure - indent - hanging))
                for (offset, line) in wrapped.enumerated() {
                    add((offset == 0 ? marker + " " : String(repeating: " ", count: hanging)) + line, .text, indent: indent, block: index)
                }
                if index + 1 >= blocks.count || !Self.isListItem(blocks[index + 1]) { add("", .text, block: index) }
            case .quote(let text):
                for line in TextWrapper.wrap(text, width: max(1, measure - 4)) { add("│ " + line, .quote, indent: 2, block: index) }
                add("", .text, block: index)
            case .preformatted(let text):
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    add(String(line).replacingOccurrences(of: "\t", with: "    "), .code, indent: 2, block: index)
                }
                add("", .text, block: index)
            case .image(_, let alt):
                let label = alt.isEmpty ? "[picture]" : "[picture: \(alt)]"
                for line in TextWrapper.wrap(label, width: measure) { add(line, .quote, block: index) }
                add("", .text, block: index)
            case .rule:
                let rule = "*   *   *"
                add(String(repeating: " ", count: max(0, (measure - rule.count) / 2)) + rule, .text, block: index)
                add("", .text, block: index)
            }
        }
        while let last = lines.last, last.text.isEmpty { lines.removeLast() }
        self.lines = lines
        firstLineOfBlock = firstLines
    }

    private static func isListItem(_ block: TextBlock) -> Bool {
        if case .listItem = block { return true }
        return false
    }

    /// The block shown on a line (the last block for lines past the end).
    public func blockIndex(atLine line: Int) -> Int {
        guard !lines.isEmpty else { return 0 }
        return lines[min(max(0, line), lines.count - 1)].blockIndex
    }

    /// The first line of a block (the end for blocks past the last).
    public func line(forBlock block: Int) -> Int {
        guard !firstLineOfBlock.isEmpty else { return 0 }
        return min(firstLineOfBlock[min(max(0, block), firstLineOfBlock.count - 1)], max(0, lines.count - 1))
    }

    /// The set text without styles, one string per line, indented but not centred (for `read --plain`).
    public var plainLines: [String] {
        lines.map { String(repeating: " ", count: $0.indent) + $0.text }
    }
}

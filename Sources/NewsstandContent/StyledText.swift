import Foundation

/// Inline styles a run of article text can carry.
public struct InlineStyle: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `b`, `strong`, `th`.
    public static let bold = InlineStyle(rawValue: 1 << 0)
    /// `i`, `em`, `cite`, `var`, `dfn`.
    public static let italic = InlineStyle(rawValue: 1 << 1)
    /// `u`, `ins`.
    public static let underline = InlineStyle(rawValue: 1 << 2)
    /// `code`, `kbd`, `samp`, `tt`.
    public static let code = InlineStyle(rawValue: 1 << 3)
}

/// A numbered link: `number` is 1-based, in order of first appearance in the document (a URL
/// that appears twice keeps its first number).
public struct TextLink: Hashable, Sendable {
    public let number: Int
    public let url: URL

    public init(number: Int, url: URL) {
        self.number = number
        self.url = url
    }
}

/// A run of text with one style.
public struct StyledRun: Hashable, Sendable {
    public var text: String
    public var style: InlineStyle
    /// Set on the text of a link and on its `[N]` marker.
    public var link: TextLink?
    /// Set on a footnote reference marker (`[^N]`): the note's number.
    public var footnote: Int?

    public init(_ text: String, style: InlineStyle = [], link: TextLink? = nil, footnote: Int? = nil) {
        self.text = text
        self.style = style
        self.link = link
        self.footnote = footnote
    }

    /// Whether two runs can be merged into one.
    func hasSameAttributes(as other: StyledRun) -> Bool {
        style == other.style && link == other.link && footnote == other.footnote
    }
}

/// Paragraph text as runs of differently styled text.
///
/// Text is sanitised and has its white space collapsed; a `"\n"` is a forced line break (`<br>`).
/// Adjacent runs with the same attributes are merged, so equal texts compare equal.
/// A string literal is plain text: `.paragraph("Hello")`.
public struct StyledText: Hashable, Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public private(set) var runs: [StyledRun]

    public init(_ runs: [StyledRun]) {
        self.runs = []
        for run in runs { append(run) }
    }

    public init(_ text: String, style: InlineStyle = []) {
        self.init([StyledRun(text, style: style)])
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The text without styles.
    public var plainText: String { runs.map(\.text).joined() }

    public var description: String { plainText }

    public var isEmpty: Bool { runs.isEmpty }

    /// Appends a run, merging it into the last one when their attributes match.
    public mutating func append(_ run: StyledRun) {
        guard !run.text.isEmpty else { return }
        if let last = runs.last, last.hasSameAttributes(as: run) {
            runs[runs.count - 1].text += run.text
        } else {
            runs.append(run)
        }
    }

    public mutating func append(_ text: StyledText) {
        for run in text.runs { append(run) }
    }

    /// The same runs with their text transformed (e.g. uppercased for a title).
    public func mapText(_ transform: (String) -> String) -> StyledText {
        StyledText(runs.map { StyledRun(transform($0.text), style: $0.style, link: $0.link, footnote: $0.footnote) })
    }

    /// Removes leading and trailing spaces and line breaks.
    func trimmed() -> StyledText {
        var runs = self.runs
        while let first = runs.first {
            var text = first.text
            while let character = text.first, character == " " || character == "\n" { text.removeFirst() }
            if text.isEmpty { runs.removeFirst() } else { runs[0].text = text; break }
        }
        while let last = runs.last {
            var text = last.text
            while let character = text.last, character == " " || character == "\n" { text.removeLast() }
            if text.isEmpty { runs.removeLast() } else { runs[runs.count - 1].text = text; break }
        }
        return StyledText(runs)
    }
}

/// A simple table: rows of cells, the first `headerRowCount` rows being headers.
public struct TextTable: Hashable, Sendable {
    public var rows: [[StyledText]]
    public var headerRowCount: Int

    public init(rows: [[StyledText]], headerRowCount: Int = 0) {
        self.rows = rows
        self.headerRowCount = headerRowCount
    }

    /// The number of columns (the widest row).
    public var columnCount: Int { rows.map(\.count).max() ?? 0 }
}

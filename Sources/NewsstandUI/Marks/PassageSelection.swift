import NewsstandCore

/// A passage being chosen in the article shown (`v`): from the first word of the line at the top, to a word
/// the keys move. Word indices are into `passages`, the article's words at the current width.
public struct PassageSelection: Equatable, Sendable {
    public let passages: ArticlePassages
    public private(set) var first: Int
    public private(set) var last: Int

    /// Starts at the first word at or below `line`, taking in that word's whole line; nil when nothing below has words.
    public init?(_ passages: ArticlePassages, fromLine line: Int) {
        guard let first = passages.words.firstIndex(where: { $0.line >= line }) else { return nil }
        self.passages = passages
        self.first = first
        last = passages.words.lastIndex { $0.line == passages.words[first].line } ?? first
    }

    /// The same words in `passages` laid out again (after a resize); nil when none is left.
    public init?(_ old: PassageSelection, in passages: ArticlePassages) {
        guard let range = passages.wordRange(from: old.start, to: old.end) else { return nil }
        self.passages = passages
        first = range.lowerBound
        last = range.upperBound
    }

    public var start: ReadingPosition { passages.words[first].start }
    public var end: ReadingPosition { passages.words[last].end }
    /// The line of the last word (kept in view).
    public var lastLine: Int { passages.words[last].line }
    public var words: ClosedRange<Int> { first...last }

    /// Takes in the next word.
    public mutating func nextWord() { last = min(passages.words.count - 1, last + 1) }

    /// Gives back the last word (the first stays).
    public mutating func previousWord() { last = max(first, last - 1) }

    /// Takes in the rest of the next line that has words.
    public mutating func nextLine() {
        let words = passages.words
        guard let next = words[(last + 1)...].first?.line else { return }
        last = words.lastIndex { $0.line == next } ?? last
    }

    /// Gives back the last line: ends at the end of the line before (never before the first word's line).
    public mutating func previousLine() {
        let words = passages.words
        let line = words[last].line
        if let previous = words[first..<last].last(where: { $0.line < line }) {
            last = words.lastIndex { $0.line == previous.line } ?? last
        } else {
            last = first
        }
    }
}

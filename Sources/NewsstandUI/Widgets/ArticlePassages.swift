import Foundation
import NewsstandCore

/// Passages of a laid-out article in the width-independent terms of `ReadingPosition`: a block and the
/// characters before a place in it other than white space and decoration. The words of the article and
/// the text between two places are the same at any width, so a highlight drawn at one width is drawn
/// over the same words at another, and its text can be checked against (and found again in) the article.
public struct ArticlePassages: Equatable, Sendable {
    /// A word of a line: where it is on the screen's line and where it starts and ends in its block.
    public struct Word: Equatable, Sendable {
        public let line: Int
        /// A range of the line's `text`.
        public let range: Range<String.Index>
        public let start: ReadingPosition
        /// Just past its last character.
        public let end: ReadingPosition
        /// The word continues the one before it (a long word split at the end of a line): no space between them.
        public let joinsPrevious: Bool
        public let text: String
    }

    public let articleIndex: Int
    /// Every word of the article in line order (pictures' lines have none).
    public let words: [Word]

    public init(_ layout: ArticleLayout, articleIndex: Int) {
        self.articleIndex = articleIndex
        var words: [Word] = []
        for (index, line) in layout.lines.enumerated() where line.imageSource == nil {
            let lineWords = Self.words(of: line, index: index, articleIndex: articleIndex)
            for (position, word) in lineWords.enumerated() {
                let joins = position == 0 && line.continuesPrevious && !line.followsSpace && words.last?.line == index - 1
                    && words.last.map { layout.lines[index - 1].text.endIndex == $0.range.upperBound } == true
                words.append(Word(line: word.line, range: word.range, start: word.start, end: word.end, joinsPrevious: joins, text: word.text))
            }
        }
        self.words = words
    }

    /// The words of one line, after its decoration.
    static func words(of line: ArticleLayout.Line, index: Int, articleIndex: Int) -> [Word] {
        let text = line.text
        let utf16 = text.utf16
        let lead = min(line.leadLength, utf16.count)
        var words: [Word] = []
        var counted = 0
        var wordStart: (String.Index, Int)?
        var scalarIndex = String.Index(utf16Offset: lead, in: text)
        let scalars = text.unicodeScalars
        func finish(at end: String.Index) {
            guard let (from, startCount) = wordStart else { return }
            words.append(Word(line: index, range: from..<end,
                              start: ReadingPosition(articleIndex: articleIndex, blockIndex: line.blockIndex, characterOffset: line.offsetInBlock + startCount),
                              end: ReadingPosition(articleIndex: articleIndex, blockIndex: line.blockIndex, characterOffset: line.offsetInBlock + counted),
                              joinsPrevious: false, text: String(text[from..<end])))
            wordStart = nil
        }
        while scalarIndex < scalars.endIndex {
            let scalar = scalars[scalarIndex]
            if scalar.properties.isWhitespace {
                finish(at: scalarIndex)
            } else {
                if wordStart == nil { wordStart = (scalarIndex, counted) }
                counted += 1
            }
            scalarIndex = scalars.index(after: scalarIndex)
        }
        finish(at: text.endIndex)
        return words
    }

    /// The words from `start` to just before `end`, joined: a passage's text, white space collapsed.
    public func text(from start: ReadingPosition, to end: ReadingPosition) -> String {
        Self.joined(words.filter { $0.start >= start && $0.end <= end && $0.start < end })
    }

    /// Words joined by single spaces (none inside a word split across lines).
    static func joined<S: Sequence>(_ words: S) -> String where S.Element == Word {
        var text = ""
        for word in words {
            if !text.isEmpty && !word.joinsPrevious { text += " " }
            text += word.text
        }
        return text
    }

    /// The indices of the words from `start` to just before `end`.
    public func wordRange(from start: ReadingPosition, to end: ReadingPosition) -> ClosedRange<Int>? {
        guard let first = words.firstIndex(where: { $0.start >= start && $0.start < end }),
              let last = words.lastIndex(where: { $0.end <= end && $0.start >= start }), first <= last else { return nil }
        return first...last
    }

    /// Up to `count` words before and after the words `range`, for finding the passage again.
    public func context(around range: ClosedRange<Int>, count: Int = 6) -> (before: String, after: String) {
        let before = words[max(0, range.lowerBound - count)..<range.lowerBound]
        let after = words[min(words.count, range.upperBound + 1)..<min(words.count, range.upperBound + 1 + count)]
        return (Self.joined(before), Self.joined(after))
    }

    /// The part of `line` from `start` to just before `end` (both in its article), for drawing: nil when none of it is.
    public static func range(on line: ArticleLayout.Line, from start: ReadingPosition, to end: ReadingPosition) -> Range<String.Index>? {
        let lineStart = ReadingPosition(articleIndex: start.articleIndex, blockIndex: line.blockIndex, characterOffset: line.offsetInBlock)
        guard line.imageSource == nil, lineStart < end,
              start <= ReadingPosition(articleIndex: start.articleIndex, blockIndex: line.blockIndex, characterOffset: line.offsetInBlock + line.text.unicodeScalars.count)
        else { return nil }
        let inside = words(of: line, index: 0, articleIndex: start.articleIndex).filter { $0.start >= start && $0.end <= end && $0.start < end }
        guard let first = inside.first, let last = inside.last else { return nil }
        return first.range.lowerBound..<last.range.upperBound
    }

    // MARK: Finding a passage again

    /// The article's words as one text, and where each word starts in it (in characters).
    private var flattened: (text: [Character], starts: [Int]) {
        var text: [Character] = []
        var starts: [Int] = []
        for word in words {
            if !text.isEmpty && !word.joinsPrevious { text.append(" ") }
            starts.append(text.count)
            text.append(contentsOf: word.text)
        }
        return (text, starts)
    }

    /// Where `passage` occurs in the article, as word ranges, best first: the context before and after it
    /// matching, then nearest to `near` (a word index).
    public func find(_ passage: String, before: String = "", after: String = "", near: Int = 0) -> [ClosedRange<Int>] {
        let needle = Array(passage)
        guard !needle.isEmpty, !words.isEmpty else { return [] }
        let (text, starts) = flattened
        guard needle.count <= text.count else { return [] }
        var found: [(range: ClosedRange<Int>, score: Int)] = []
        var offset = 0
        while offset + needle.count <= text.count {
            if text[offset] == needle[0], Array(text[offset..<offset + needle.count]) == needle {
                let endOffset = offset + needle.count
                // The words the match touches.
                let first = (starts.lastIndex { $0 <= offset }) ?? 0
                let last = (starts.lastIndex { $0 < endOffset }) ?? first
                var score = 0
                if !before.isEmpty, String(text[..<offset]).trimmingCharacters(in: .whitespaces).hasSuffix(before) { score += 2 }
                if !after.isEmpty, String(text[endOffset...]).trimmingCharacters(in: .whitespaces).hasPrefix(after) { score += 2 }
                found.append((first...last, score))
            }
            offset += 1
        }
        return found.sorted { ($1.score, abs($0.range.lowerBound - near)) < ($0.score, abs($1.range.lowerBound - near)) }.map(\.range)
    }
}

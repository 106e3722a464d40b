import Foundation

/// Where a search query appears in a laid-out article, a match split by a line break included.
///
/// The lines that one block was wrapped into are searched as one text, joined by the single space
/// each break took, so "public staircases" is found when "public" ends one line and "staircases"
/// starts the next. Each match comes back as its pieces, one per line it touches.
public struct ArticleMatches: Equatable, Sendable {
    /// The part of one match on one line: a range of that line's `text`.
    public struct Piece: Equatable, Sendable {
        public let line: Int
        public let range: Range<String.Index>
    }

    /// Every match found, in order; each is one piece or several on consecutive lines.
    public let matches: [[Piece]]

    /// Finds `query` (ignoring case) in `lines` of `layout`; a match must start inside them, and may run
    /// on past them within its block. An empty query finds nothing.
    public init(_ query: String, in layout: ArticleLayout, lines: Range<Int>? = nil) {
        let wanted = lines.map { $0.clamped(to: 0..<layout.lines.count) } ?? 0..<layout.lines.count
        guard !query.isEmpty, !wanted.isEmpty else {
            matches = []
            return
        }
        // Lines of the same block just outside `wanted` are read too (a few, not a whole long paragraph
        // every frame), so matches are aligned as in the whole text and may run on past the last line.
        let reach = 4
        let floor = max(0, wanted.lowerBound - reach), ceiling = min(layout.lines.count, wanted.upperBound + reach)
        var found: [[Piece]] = []
        var start = wanted.lowerBound
        while start > floor, layout.lines[start - 1].blockIndex == layout.lines[start].blockIndex { start -= 1 }
        while start < wanted.upperBound {
            var end = start + 1
            while end < ceiling, layout.lines[end].blockIndex == layout.lines[start].blockIndex { end += 1 }
            found += Self.matches(of: query, in: layout, lines: start..<end).filter { wanted.contains($0[0].line) }
            start = end
        }
        matches = found
    }

    /// The lines on which a match starts, in order, each once.
    public var startLines: [Int] {
        var lines: [Int] = []
        for match in matches where lines.last != match[0].line { lines.append(match[0].line) }
        return lines
    }

    /// The pieces on `line`.
    public func pieces(onLine line: Int) -> [Piece] {
        matches.flatMap { $0.filter { $0.line == line } }
    }

    /// Matches in the lines of one block, searched as one text.
    private static func matches(of query: String, in layout: ArticleLayout, lines: Range<Int>) -> [[Piece]] {
        var joined = ""
        var starts: [Int] = []  // where each line's text begins in `joined`, in UTF-16 units
        for index in lines {
            if index > lines.lowerBound { joined += " " }
            starts.append(joined.utf16.count)
            joined += layout.lines[index].text
        }
        var result: [[Piece]] = []
        var searchRange = joined.startIndex..<joined.endIndex
        while let range = joined.range(of: query, options: .caseInsensitive, range: searchRange) {
            let lower = joined.utf16.distance(from: joined.startIndex, to: range.lowerBound)
            let upper = joined.utf16.distance(from: joined.startIndex, to: range.upperBound)
            var pieces: [Piece] = []
            for (offset, start) in starts.enumerated() {
                let line = lines.lowerBound + offset
                let text = layout.lines[line].text
                let end = start + text.utf16.count
                let from = max(lower, start), to = min(upper, end)
                guard from < to else { continue }
                let first = String.Index(utf16Offset: from - start, in: text)
                let last = String.Index(utf16Offset: to - start, in: text)
                pieces.append(Piece(line: line, range: first..<last))
            }
            if !pieces.isEmpty { result.append(pieces) }
            guard range.upperBound < joined.endIndex else { break }
            searchRange = range.upperBound..<joined.endIndex
        }
        return result
    }
}

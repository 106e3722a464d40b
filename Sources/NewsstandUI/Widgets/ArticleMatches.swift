import Foundation

/// Where a search query appears in a laid-out article, a match split by a line break included.
///
/// A line and the lines its text wrapped onto are searched as one text, joined by the single space
/// each break took (none where a long word or East Asian text was split) and without their
/// decoration (a quote bar, a hanging indent), so "public staircases" is found when "public" ends
/// one line and "staircases" starts the next. Lines that do not wrap (verbatim text, table rows)
/// are searched one by one. Each match comes back as its pieces, one per line it touches.
public struct ArticleMatches: Equatable, Sendable {
    /// The part of one match on one line: a range of that line's `text`.
    public struct Piece: Equatable, Sendable {
        public let line: Int
        public let range: Range<String.Index>
    }

    /// Every match found, in order; each is one piece or several on consecutive lines.
    public let matches: [[Piece]]

    /// Lines read beyond those asked for, to join the wrapped text around them: a few, not a whole
    /// long paragraph on every frame.
    private static let reach = 4

    /// Finds `query` (ignoring case) in `lines` of `layout` (all of them when nil); a match must start
    /// inside them, and may run on past them. An empty query finds nothing.
    public init(_ query: String, in layout: ArticleLayout, lines: Range<Int>? = nil) {
        let wanted = lines.map { $0.clamped(to: 0..<layout.lines.count) } ?? 0..<layout.lines.count
        guard !query.isEmpty, !wanted.isEmpty else {
            matches = []
            return
        }
        let floor = lines == nil ? 0 : max(0, wanted.lowerBound - Self.reach)
        let ceiling = lines == nil ? layout.lines.count : min(layout.lines.count, wanted.upperBound + Self.reach)
        var found: [[Piece]] = []
        var start = wanted.lowerBound
        while start > floor, layout.lines[start].continuesPrevious { start -= 1 }
        while start < wanted.upperBound {
            var end = start + 1
            while end < ceiling, layout.lines[end].continuesPrevious { end += 1 }
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

    /// Matches in one line and the lines that continue it, searched as one text.
    private static func matches(of query: String, in layout: ArticleLayout, lines: Range<Int>) -> [[Piece]] {
        var joined = ""
        var length = 0           // of `joined`, in UTF-16 units
        var starts: [Int] = []   // where each line's part begins in `joined`
        var leads: [Int] = []    // UTF-16 units of each line's text left out before its part
        for index in lines {
            let line = layout.lines[index]
            // The first line keeps its decoration (a list marker may be searched for); the rest drop it.
            let lead = index == lines.lowerBound ? 0 : min(line.leadLength, line.text.utf16.count)
            let part = index == lines.lowerBound ? line.text : line.runningText
            if index > lines.lowerBound, line.followsSpace {
                joined += " "
                length += 1
            }
            starts.append(length)
            leads.append(lead)
            joined += part
            length += part.utf16.count
        }
        var result: [[Piece]] = []
        var searchRange = joined.startIndex..<joined.endIndex
        while let range = joined.range(of: query, options: .caseInsensitive, range: searchRange) {
            let lower = range.lowerBound.utf16Offset(in: joined)
            let upper = range.upperBound.utf16Offset(in: joined)
            // The last line whose part starts at or before the match, found by halving.
            var low = 0, high = starts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if starts[middle] <= lower { low = middle } else { high = middle - 1 }
            }
            var pieces: [Piece] = []
            var offset = low
            while offset < starts.count, starts[offset] < upper {
                let line = lines.lowerBound + offset
                let text = layout.lines[line].text
                let next = lines.lowerBound + offset + 1
                let end = offset + 1 < starts.count ? starts[offset + 1] - (layout.lines[next].followsSpace ? 1 : 0) : length
                let from = max(lower, starts[offset]), to = min(upper, end)
                if from < to {
                    let first = String.Index(utf16Offset: leads[offset] + from - starts[offset], in: text)
                    let last = String.Index(utf16Offset: leads[offset] + to - starts[offset], in: text)
                    pieces.append(Piece(line: line, range: first..<last))
                }
                offset += 1
            }
            if !pieces.isEmpty { result.append(pieces) }
            guard range.upperBound < joined.endIndex else { break }
            searchRange = range.upperBound..<joined.endIndex
        }
        return result
    }
}

/// Breaks styled text into lines no wider than a given number of terminal columns.
///
/// Breaks at spaces, at forced line breaks (`"\n"`) and on either side of a wide (CJK) character,
/// so East Asian text wraps without spaces. A word wider than the line is split between grapheme
/// clusters, never inside one. Widths come from `DisplayWidth`, one grapheme cluster at a time.
/// Styles, links and note markers stay with their text; a space between two words keeps the
/// attributes of the run it came from.
public enum StyledTextWrapper {
    /// One line of wrapped text.
    public struct Line: Equatable, Sendable {
        public var runs: [StyledRun]
        /// White space (or a forced line break) was dropped where the text broke onto this line;
        /// false for the first line and where a word or East Asian text was split.
        public var followsSpace: Bool
    }

    /// Lines of `text` each at most `width` columns (a single wide character on a 1-column
    /// line is the one exception: it is kept whole). Adjacent runs with the same attributes are merged.
    public static func wrap(_ text: StyledText, width: Int) -> [[StyledRun]] {
        wrapLines(text, width: width).map(\.runs)
    }

    /// `wrap`, saying for each line how it follows the one before.
    public static func wrapLines(_ text: StyledText, width: Int) -> [Line] {
        let width = max(1, width)
        var lines: [Line] = []
        var line: [StyledRun] = []
        var lineWidth = 0
        var lineFollowsSpace = false
        func finishLine() {
            lines.append(Line(runs: merged(line), followsSpace: lineFollowsSpace))
            line = []
            lineWidth = 0
            lineFollowsSpace = false
        }
        for token in tokens(of: text) {
            switch token {
            case .newline:
                finishLine()
                lineFollowsSpace = true
            case .word(var pieces, var wordWidth, let space):
                let separator = lineWidth > 0 && space != nil ? 1 : 0
                if lineWidth + separator + wordWidth <= width {
                    if separator == 1, let space { line.append(space) }
                    line += pieces
                    lineWidth += separator + wordWidth
                    continue
                }
                if lineWidth > 0 {
                    finishLine()
                    lineFollowsSpace = space != nil
                }
                while wordWidth > width {
                    let (head, headWidth, rest) = split(pieces, fitting: width)
                    lines.append(Line(runs: merged(head), followsSpace: lineFollowsSpace))
                    lineFollowsSpace = false
                    pieces = rest
                    wordWidth -= headWidth
                }
                line = pieces
                lineWidth = wordWidth
            }
        }
        if !line.isEmpty || lines.isEmpty || lineWidth > 0 { finishLine() }
        return lines
    }

    private enum Token {
        /// Text between break opportunities, its width, and the space before it (nil when none).
        case word([StyledRun], Int, space: StyledRun?)
        case newline
    }

    private static func tokens(of text: StyledText) -> [Token] {
        var tokens: [Token] = []
        var pieces: [StyledRun] = []
        var width = 0
        var space: StyledRun?
        var pendingSpace: StyledRun?
        func finishWord() {
            guard !pieces.isEmpty else { return }
            tokens.append(.word(pieces, width, space: space))
            pieces = []
            width = 0
            space = nil
        }
        func add(_ character: Character, like run: StyledRun) {
            if pieces.isEmpty { space = pendingSpace; pendingSpace = nil }
            if let last = pieces.last, last.hasSameAttributes(as: run) {
                pieces[pieces.count - 1].text.append(character)
            } else {
                var piece = run
                piece.text = String(character)
                pieces.append(piece)
            }
            width += DisplayWidth.of(character)
        }
        for run in text.runs {
            for character in run.text {
                switch character {
                case "\n", "\r\n":
                    finishWord()
                    pendingSpace = nil
                    tokens.append(.newline)
                case " ", "\t":
                    finishWord()
                    if pendingSpace == nil {
                        var piece = run
                        piece.text = " "
                        pendingSpace = piece
                    }
                default:
                    if DisplayWidth.of(character) == 2 {
                        // A wide character is a word of its own: lines may break on either side of it.
                        finishWord()
                        add(character, like: run)
                        finishWord()
                    } else {
                        add(character, like: run)
                    }
                }
            }
        }
        finishWord()
        return tokens
    }

    /// The longest head of `pieces` that fits in `columns` (at least one cluster), its width, and the rest.
    private static func split(_ pieces: [StyledRun], fitting columns: Int) -> ([StyledRun], Int, [StyledRun]) {
        var head: [StyledRun] = []
        var rest: [StyledRun] = []
        var used = 0
        var full = false
        for piece in pieces {
            if full {
                rest.append(piece)
                continue
            }
            var taken = ""
            var remainder = ""
            for character in piece.text {
                if full {
                    remainder.append(character)
                    continue
                }
                let characterWidth = DisplayWidth.of(character)
                if used + characterWidth > columns && (used > 0 || !taken.isEmpty) {
                    full = true
                    remainder.append(character)
                } else {
                    taken.append(character)
                    used += characterWidth
                }
            }
            if !taken.isEmpty { var part = piece; part.text = taken; head.append(part) }
            if !remainder.isEmpty { var part = piece; part.text = remainder; rest.append(part) }
        }
        return (head, used, rest)
    }

    static func merged(_ runs: [StyledRun]) -> [StyledRun] {
        StyledText(runs).runs
    }
}

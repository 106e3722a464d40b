import NewsstandImaging

/// What a terminal answered to the start-up queries (`TerminalQuery`), parsed from the raw bytes.
///
/// The answers looked for: the kitty graphics query (`ESC _ G i=31;OK ESC \`), the cell size in pixels
/// (`CSI 6 ; height ; width t`), XTVERSION (`DCS > | name version ST`) and the primary device attributes
/// (`CSI ? 62 ; 4 ; … c`, where 4 means sixel) and the background colour (`OSC 11 ; rgb:… ST`, read by
/// `BackgroundColorAnswer`). DA1 is asked last, so its answer means every other
/// answer has arrived. Inside tmux, XTVERSION and DA1 are asked again through passthrough: the outer terminal's
/// answers come after tmux's own DA1 (tmux 3.3 passes those two back to the program, but not kitty's graphics answer). Anything else in the bytes (keys typed meanwhile) is kept in `typed`, to be read as keys.
struct TerminalAnswers: Equatable {
    /// The kitty graphics query was answered OK.
    var hasKittyGraphics = false
    /// The DA1 attributes (of the first answer), nil when DA1 was not answered (the terminal answered nothing in time).
    var primaryAttributes: [Int]?
    /// How many DA1 answers arrived (inside tmux, tmux's own and, through passthrough, the outer terminal's).
    var primaryAnswerCount = 0
    /// The terminal's name and version from XTVERSION, e.g. "kitty(0.35.2)", "XTerm(379)", "tmux 3.4".
    var version: String?
    /// An XTVERSION answer that came after a DA1 answer: inside tmux, the outer terminal's, asked through passthrough
    /// after tmux's own questions (tmux answers its own at once; the outer terminal's come later, in the order asked).
    var outerVersion: String?
    /// The cell size from `CSI 16 t`, when the terminal gave one.
    var cellPixelSize: CellPixelSize?
    /// The background colour from OSC 11, when the terminal gave one in a form `BackgroundColorAnswer` reads.
    var background: RGBColor?
    /// The bytes that were no answer (keys typed before the program was ready), in order.
    var typed: [UInt8] = []

    /// The image id of the kitty graphics query (any id answers; this one is recognisable).
    static let kittyQueryID = 31

    /// DA1 was answered: the terminal has said all it will say.
    var isComplete: Bool { primaryAttributes != nil }

    /// DA1 lists attribute 4: the terminal draws sixel graphics.
    var hasSixel: Bool { primaryAttributes?.contains(4) ?? false }

    /// The terminal's name without its version, lowercased ("kitty", "xterm", "wezterm", "tmux", "iterm2").
    var terminalName: String? { Self.name(of: version) }

    /// The outer terminal's name from `outerVersion` (inside tmux), lowercased as `terminalName`.
    var outerTerminalName: String? { Self.name(of: outerVersion) }

    /// The name at the start of an XTVERSION answer, without its version, lowercased.
    static func name(of version: String?) -> String? {
        guard let version else { return nil }
        let name = version.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        return name.isEmpty ? nil : name.lowercased()
    }

    /// Parses every answer found in `bytes`.
    static func parse(_ bytes: [UInt8]) -> TerminalAnswers {
        var answers = TerminalAnswers()
        var index = 0
        while index < bytes.count {
            guard bytes[index] == 0x1B, index + 1 < bytes.count else {
                answers.typed.append(bytes[index])
                index += 1
                continue
            }
            switch bytes[index + 1] {
            case UInt8(ascii: "_"): // APC: kitty graphics answer
                guard let end = stringTerminator(in: bytes, from: index + 2) else { return answers }
                let body = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
                if body.hasPrefix("G"), body.contains("i=\(kittyQueryID)") { answers.hasKittyGraphics = body.hasSuffix(";OK") }
                index = end + (bytes[end] == 0x07 ? 1 : 2)
            case UInt8(ascii: "]"): // OSC: the background colour, `11;rgb:…`; an ESC that is no ST abandons it
                var end = index + 2
                while end < bytes.count, bytes[end] != 0x07, bytes[end] != 0x1B { end += 1 }
                guard end < bytes.count, bytes[end] == 0x07 || end + 1 < bytes.count else { return answers }
                let isTerminated = bytes[end] == 0x07 || bytes[end + 1] == UInt8(ascii: "\\")
                if isTerminated, let color = BackgroundColorAnswer.parse(oscBody: String(decoding: bytes[(index + 2)..<end], as: UTF8.self)) {
                    answers.background = color
                }
                index = isTerminated ? end + (bytes[end] == 0x07 ? 1 : 2) : end
            case UInt8(ascii: "P"): // DCS: XTVERSION answer is `>|text`
                guard let end = stringTerminator(in: bytes, from: index + 2) else { return answers }
                let body = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
                if body.hasPrefix(">|") {
                    let text = body.dropFirst(2).prefix { $0.isASCII && $0 >= " " && $0 != "\u{7F}" }
                    if answers.primaryAnswerCount == 0 {
                        answers.version = String(text.prefix(64))
                    } else if answers.outerVersion == nil {
                        answers.outerVersion = String(text.prefix(64))
                    }
                }
                index = end + (bytes[end] == 0x07 ? 1 : 2)
            case UInt8(ascii: "["): // CSI: DA1 or the cell size
                var end = index + 2
                while end < bytes.count, (0x20...0x3F).contains(bytes[end]) { end += 1 }
                guard end < bytes.count else { return answers }
                let parameters = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
                if bytes[end] == UInt8(ascii: "c"), parameters.hasPrefix("?"), parameters.count > 1 {
                    if answers.primaryAttributes == nil {
                        answers.primaryAttributes = parameters.dropFirst().split(separator: ";").compactMap { Int($0) }
                    }
                    answers.primaryAnswerCount += 1
                } else if bytes[end] == UInt8(ascii: "t") {
                    let numbers = parameters.split(separator: ";").compactMap { Int($0) }
                    if numbers.count == 3, numbers[0] == 6, numbers[1] > 0, numbers[2] > 0 {
                        answers.cellPixelSize = CellPixelSize(width: numbers[2], height: numbers[1])
                    }
                } else {
                    answers.typed += bytes[index...end] // a key such as an arrow
                }
                index = end + 1
            default:
                answers.typed.append(bytes[index])
                index += 1
            }
        }
        return answers
    }

    /// The index of the `ESC \` (or BEL) that ends a string started before `start`; nil when it has not arrived.
    private static func stringTerminator(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            if bytes[index] == 0x07 { return index }
            if bytes[index] == 0x1B, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return nil
    }
}

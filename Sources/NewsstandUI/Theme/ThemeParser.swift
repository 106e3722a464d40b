import NewsstandImaging

/// A theme file that could not be read, with the line at fault.
public struct ThemeError: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

/// Reads theme files: plain text, one directive per line; a word starting with `#` (other than a colour) starts a comment.
///
///     background dark|light
///     cover-mode ascii|ascii-color|blocks
///     color ELEMENT FOREGROUND BACKGROUND [bold] [dim] [italic] [underline] [reverse]
///
/// Colours are `default`, the eight names `black red green yellow blue magenta cyan white`,
/// the same with `bright-` in front, `colorN` (0–255), or `#rrggbb`. Elements are the names
/// of `ThemeElement` (`title`, `selection`, `progress-done`, …).
public enum ThemeParser {
    public static func parse(_ text: String, name: String) throws -> Theme {
        var theme = Theme(name: name)
        // Split on bytes, not characters (a theme is read at every start): "\r\n" is one character, so a file with
        // Windows line ends would otherwise be one long line.
        for (offset, rawLine) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            // A word starting with `#` begins a comment, unless it is a #rrggbb colour.
            let words = Array(rawLine.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D })
                .lazy.map { String(decoding: $0, as: UTF8.self) }
                .prefix { !$0.hasPrefix("#") || color($0) != nil })
            guard let directive = words.first else { continue }
            func fail(_ message: String) -> ThemeError { ThemeError(description: "theme \(name), line \(offset + 1): \(message)") }
            switch directive {
            case "background":
                guard words.count == 2, ["dark", "light"].contains(words[1]) else { throw fail("expected `background dark` or `background light`") }
                theme.isLight = words[1] == "light"
            case "cover-mode":
                guard words.count == 2, let mode = CoverArtMode(rawValue: words[1]) else {
                    throw fail("expected `cover-mode ascii`, `cover-mode ascii-color` or `cover-mode blocks`")
                }
                theme.coverMode = mode
            case "color":
                guard words.count >= 4 else { throw fail("expected `color ELEMENT FOREGROUND BACKGROUND [ATTRIBUTES]`") }
                guard let element = ThemeElement(rawValue: words[1]) else { throw fail("unknown element '\(words[1])'") }
                guard let foreground = color(words[2]) else { throw fail("unknown colour '\(words[2])'") }
                guard let background = color(words[3]) else { throw fail("unknown colour '\(words[3])'") }
                var attributes: TextAttributes = []
                for word in words.dropFirst(4) {
                    guard let attribute = attributeNames[word] else { throw fail("unknown attribute '\(word)'") }
                    attributes.insert(attribute)
                }
                theme.styles[element] = TextStyle(foreground: foreground, background: background, attributes: attributes)
            default:
                throw fail("unknown directive '\(directive)'")
            }
        }
        return theme
    }

    static let attributeNames: [String: TextAttributes] = [
        "bold": .bold, "dim": .dim, "italic": .italic, "underline": .underline, "reverse": .reverse,
    ]

    static let colorNames = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]

    static func color(_ word: String) -> TerminalColor? {
        if word == "default" { return .default }
        if let index = colorNames.firstIndex(of: word) { return .basic(UInt8(index)) }
        if word.hasPrefix("bright-"), let index = colorNames.firstIndex(of: String(word.dropFirst(7))) { return .basic(UInt8(index + 8)) }
        if word.hasPrefix("color"), let index = UInt8(word.dropFirst(5)) { return .indexed(index) }
        if word.hasPrefix("#"), word.count == 7, let value = UInt32(word.dropFirst(), radix: 16) {
            return .rgb(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
        }
        return nil
    }
}

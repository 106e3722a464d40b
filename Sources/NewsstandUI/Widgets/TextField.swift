import NewsstandContent

/// A one-line text field being edited: its text and cursor, changed by keys.
///
/// Pasted text arrives as a run of character keys, so pasting a URL just works.
public struct TextField: Equatable, Sendable {
    public private(set) var text: String
    /// Cursor position in characters (0…text.count).
    public private(set) var cursor: Int

    public init(_ text: String = "") {
        self.text = text
        cursor = text.count
    }

    /// What a key did to the field.
    public enum Outcome: Equatable, Sendable {
        case edited
        case submitted
        case cancelled
        case ignored
    }

    public mutating func apply(_ key: Key) -> Outcome {
        switch key {
        case .enter: return .submitted
        case .escape, .control("c"), .control("g"): return .cancelled
        case .character(let character):
            guard !character.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return .ignored }
            text.insert(character, at: text.index(text.startIndex, offsetBy: cursor))
            cursor += 1
        case .backspace, .control("h"):
            guard cursor > 0 else { return .ignored }
            text.remove(at: text.index(text.startIndex, offsetBy: cursor - 1))
            cursor -= 1
        case .left, .control("b"): cursor = max(0, cursor - 1)
        case .right, .control("f"): cursor = min(text.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = text.count
        case .control("u"):
            text.removeSubrange(text.startIndex..<text.index(text.startIndex, offsetBy: cursor))
            cursor = 0
        case .control("k"):
            text.removeSubrange(text.index(text.startIndex, offsetBy: cursor)...)
        default: return .ignored
        }
        return .edited
    }

    /// Draws `label` and the text on one line, scrolled so the cursor stays visible; the cursor cell is reversed.
    /// `shown`, when given, is drawn instead of the text (a masked password): it has as many characters as the text.
    public func render(label: String, in area: Rect, style: TextStyle, into buffer: inout CellBuffer, shown: String? = nil) {
        guard !area.isEmpty else { return }
        buffer.fill(Rect(x: area.x, y: area.y, width: area.width, height: 1), style: style)
        let labelWidth = buffer.write(label, x: area.x, y: area.y, style: style.adding(.bold), maxWidth: area.width)
        let room = area.width - labelWidth - 1
        guard room > 0 else { return }
        let characters = Array(shown ?? text)
        assert(characters.count == text.count, "a field's shown text has one character per character typed")
        let first = max(0, cursor - room + 1)
        var x = area.x + labelWidth
        for index in first..<max(first, min(characters.count, first + room)) {
            x += buffer.write(String(characters[index]), x: x, y: area.y, style: index == cursor ? style.adding(.reverse) : style)
        }
        if cursor >= characters.count { buffer.write(" ", x: x, y: area.y, style: style.adding(.reverse)) }
    }
}

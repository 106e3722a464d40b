/// HTML whitespace rules: only space, tab, CR, LF and form feed count (not no-break space).
enum WhitespaceCollapsing {
    static func isCollapsible(_ character: Character) -> Bool {
        switch character {
        case " ", "\t", "\n", "\r", "\r\n", "\u{0C}": return true
        default: return false
        }
    }

    static func collapse(_ text: String) -> String {
        var result = ""
        var pendingSpace = false
        for character in text {
            if isCollapsible(character) {
                pendingSpace = true
            } else {
                if pendingSpace, !result.isEmpty { result.append(" ") }
                pendingSpace = false
                result.append(character)
            }
        }
        return result
    }
}

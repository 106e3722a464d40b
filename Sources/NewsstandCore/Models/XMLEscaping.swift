/// Text made safe to put inside XML or HTML markup, as element content or a double-quoted attribute value.
enum XMLEscaping {
    /// `&`, `<`, `>` and `"` as character references; everything else as it is.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

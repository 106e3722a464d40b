import Foundation
import NewsstandContent

/// Turns feed text (plain, or HTML as RSS descriptions and Atom `type="html"` carry it) into one
/// terminal-safe line: tags dropped (block tags become spaces), `script`/`style` bodies dropped,
/// character references decoded, then `TextSanitizer.singleLine`.
enum FeedText {
    /// `text.trimmingCharacters(in: .whitespacesAndNewlines)` (or `.whitespaces` when `newlines` is
    /// false), with ASCII white space trimmed here and Foundation asked only when an end is not ASCII.
    static func trimmed(_ text: String, newlines: Bool = true) -> String {
        let utf8 = text.utf8
        guard let first = utf8.first, let last = utf8.last else { return text }
        func isSpace(_ byte: UInt8) -> Bool { newlines ? isASCIIWhitespace(byte) : byte == 0x20 || byte == 0x09 }
        if first > 0x20 && first < 0x80 && last > 0x20 && last < 0x80 { return text }
        var start = utf8.startIndex, end = utf8.endIndex
        while start < end, isSpace(utf8[start]) { start = utf8.index(after: start) }
        while end > start, isSpace(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        if start == end { return "" }
        let head = utf8[start], tail = utf8[utf8.index(before: end)]
        guard head > 0x20 && head < 0x80 && tail > 0x20 && tail < 0x80 else {
            return text.trimmingCharacters(in: newlines ? .whitespacesAndNewlines : .whitespaces)
        }
        return String(Substring(utf8[start..<end]))
    }

    /// Tab, line feed, vertical tab, form feed, carriage return, space.
    @inline(__always)
    static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    /// Plain text: only sanitised.
    static func plain(_ text: String) -> String {
        TextSanitizer.singleLine(text)
    }

    /// HTML: stripped to text, then sanitised. A `<` not followed by a tag name stays (`1 < 2`).
    static func html(_ text: String) -> String {
        TextSanitizer.singleLine(stripTags(text))
    }

    static func stripTags(_ text: String) -> String {
        guard text.contains("<") || text.contains("&") else { return text }
        let scalars = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        var skipUntilClosing: String? = nil
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "<", index + 1 < scalars.count, isTagStart(scalars[index + 1]),
               scalars[index + 1] != "!" || (index + 2 < scalars.count && (scalars[index + 2] == "-" || scalars[index + 2] == "[" || isASCIILetter(scalars[index + 2]))) {
                // Find the end of the tag (quotes may hold '>').
                var end = index + 1
                var quote: Unicode.Scalar? = nil
                if scalars[index + 1] == "!", index + 3 < scalars.count, scalars[index + 2] == "-", scalars[index + 3] == "-" {
                    // Comment: up to "-->".
                    end = index + 4
                    while end + 2 < scalars.count, !(scalars[end] == "-" && scalars[end + 1] == "-" && scalars[end + 2] == ">") { end += 1 }
                    index = min(scalars.count, end + 3)
                    continue
                }
                while end < scalars.count {
                    let c = scalars[end]
                    if let q = quote { if c == q { quote = nil } } else if c == "\"" || c == "'" { quote = c } else if c == ">" { break }
                    end += 1
                }
                let tag = String(String.UnicodeScalarView(scalars[(index + 1)..<min(end, scalars.count)]))
                let name = tagName(tag)
                if let closing = skipUntilClosing {
                    if name == "/" + closing { skipUntilClosing = nil }
                } else if name == "script" || name == "style" {
                    skipUntilClosing = name
                } else if blockTags.contains(name.hasPrefix("/") ? String(name.dropFirst()) : name) {
                    output.append(" ")
                }
                index = end + 1
                continue
            }
            if skipUntilClosing == nil { output.append(scalar) }
            index += 1
        }
        return decodeEntities(String(output))
    }

    private static func isTagStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "/" || scalar == "!" || scalar == "?" || isASCIILetter(scalar)
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func tagName(_ tag: String) -> String {
        var name = ""
        for character in tag {
            if character == " " || character == ">" || character == "\t" || character == "\n" || character == "\r" { break }
            if character == "/" && !name.isEmpty { break }
            name.append(character)
        }
        return name.lowercased()
    }

    private static let blockTags: Set<String> = [
        "p", "br", "div", "li", "ul", "ol", "tr", "td", "th", "table", "h1", "h2", "h3", "h4", "h5", "h6",
        "blockquote", "pre", "hr", "section", "article", "header", "footer", "dd", "dt", "dl", "figure", "figcaption",
    ]

    /// Decodes `&name;`, `&#NN;` and `&#xHH;`; unknown references stay as they are.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var output = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            output += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semicolon = after.prefix(12).firstIndex(of: ";") {
                let name = after[..<semicolon]
                var decoded: String? = nil
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else if name.hasPrefix("#") {
                    decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else {
                    decoded = named[String(name)]
                }
                if let decoded {
                    output += decoded
                    rest = after[after.index(after: semicolon)...]
                    continue
                }
            }
            output += "&"
            rest = after
        }
        output += rest
        return output
    }

    private static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "copy": "©", "reg": "®",
        "trade": "™", "hellip": "…", "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "ldquo": "“",
        "rdquo": "”", "laquo": "«", "raquo": "»", "bull": "•", "middot": "·", "deg": "°", "euro": "€",
        "pound": "£", "yen": "¥", "cent": "¢", "sect": "§", "para": "¶", "times": "×", "divide": "÷",
        "eacute": "é", "egrave": "è", "ecirc": "ê", "aacute": "á", "agrave": "à", "acirc": "â", "auml": "ä",
        "ouml": "ö", "uuml": "ü", "szlig": "ß", "ccedil": "ç", "ntilde": "ñ", "iacute": "í", "oacute": "ó",
        "uacute": "ú", "Eacute": "É", "Auml": "Ä", "Ouml": "Ö", "Uuml": "Ü", "shy": "",
    ]
}

/// Decoding of HTML character references (`&amp;`, `&nbsp;`, `&#8212;`, `&#x2014;`) for the
/// lenient parser. Covers the XML five, all of Latin-1 and the common typographic entities.
enum HTMLEntities {
    static let named: [String: Character] = {
        var table: [String: Character] = [:]
        let latin1 = """
        nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn \
        sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute \
        Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde \
        Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave \
        aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth \
        ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml
        """.split(separator: " ")
        for (offset, name) in latin1.enumerated() {
            table[String(name)] = Character(Unicode.Scalar(UInt32(160 + offset))!)
        }
        let others: [(String, UInt32)] = [
            ("quot", 34), ("amp", 38), ("apos", 39), ("lt", 60), ("gt", 62),
            ("OElig", 338), ("oelig", 339), ("Scaron", 352), ("scaron", 353), ("Yuml", 376), ("fnof", 402),
            ("circ", 710), ("tilde", 732), ("ensp", 8194), ("emsp", 8195), ("thinsp", 8201),
            ("zwnj", 8204), ("zwj", 8205), ("lrm", 8206), ("rlm", 8207), ("ndash", 8211), ("mdash", 8212),
            ("lsquo", 8216), ("rsquo", 8217), ("sbquo", 8218), ("ldquo", 8220), ("rdquo", 8221), ("bdquo", 8222),
            ("dagger", 8224), ("Dagger", 8225), ("bull", 8226), ("hellip", 8230), ("permil", 8240),
            ("prime", 8242), ("Prime", 8243), ("lsaquo", 8249), ("rsaquo", 8250), ("oline", 8254),
            ("frasl", 8260), ("euro", 8364), ("trade", 8482), ("larr", 8592), ("uarr", 8593), ("rarr", 8594),
            ("darr", 8595), ("harr", 8596), ("minus", 8722), ("infin", 8734), ("ne", 8800), ("le", 8804),
            ("ge", 8805), ("asymp", 8776), ("sum", 8721), ("radic", 8730), ("loz", 9674), ("spades", 9824),
            ("clubs", 9827), ("hearts", 9829), ("diams", 9830), ("alpha", 945), ("beta", 946), ("gamma", 947),
            ("delta", 948), ("epsilon", 949), ("lambda", 955), ("mu", 956), ("pi", 960), ("sigma", 963),
            ("omega", 969), ("Delta", 916), ("Sigma", 931), ("Omega", 937), ("shy", 173),
        ]
        for (name, value) in others {
            table[name] = Character(Unicode.Scalar(value)!)
        }
        return table
    }()

    /// Replaces every character reference in `text`; unknown references are left as written.
    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            guard character == "&" else {
                result.append(character)
                index = text.index(after: index)
                continue
            }
            if let (decoded, next) = reference(in: text, at: index) {
                result.append(decoded)
                index = next
            } else {
                result.append("&")
                index = text.index(after: index)
            }
        }
        return result
    }

    /// Decodes the reference starting at `start` (which is `&`), returning it and the index after it.
    private static func reference(in text: String, at start: String.Index) -> (Character, String.Index)? {
        var cursor = text.index(after: start)
        var name = ""
        while cursor < text.endIndex, name.count < 32 {
            let character = text[cursor]
            guard character.isASCII, character.isLetter || character.isNumber || character == "#" else { break }
            name.append(character)
            cursor = text.index(after: cursor)
        }
        guard !name.isEmpty else { return nil }
        let hasSemicolon = cursor < text.endIndex && text[cursor] == ";"
        let end = hasSemicolon ? text.index(after: cursor) : cursor
        if name.hasPrefix("#") {
            var digits = name.dropFirst()
            var radix = 10
            if digits.first == "x" || digits.first == "X" {
                digits = digits.dropFirst()
                radix = 16
            }
            guard let value = UInt32(digits, radix: radix) else { return nil }
            let scalar = (value == 0 || value > 0x10FFFF) ? Unicode.Scalar(0xFFFD)! : (Unicode.Scalar(value) ?? Unicode.Scalar(0xFFFD)!)
            return (Character(scalar), end)
        }
        if let character = named[name] { return (character, end) }
        return nil
    }
}

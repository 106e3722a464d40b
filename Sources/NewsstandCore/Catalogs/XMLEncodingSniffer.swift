import CLibXML2
import Foundation

/// Decides, from a document's first bytes, who decodes it: libxml2 itself (UTF-8, and every encoding
/// libxml2 names), or glibc's iconv ahead of libxml2 (`IconvTranscoder`) for what libxml2 cannot read:
/// UTF-32 and UTF-16 with or without a byte-order mark (detected as XML 1.0 Appendix F describes, whatever
/// name the declaration gives them: `u16`, `csunicode`, `ucs-2`…), EBCDIC, and code pages libxml2 does not
/// name (DOS 437, 850…866; EBCDIC 037, 500, 875, 1140; Mac Latin 2) under their `cp`, `ibm`, `csibm` and
/// `ebcdic-cp-*` aliases and Python's spellings of them, and Mac Greek, Iceland and Turkish through tables
/// (`MacCodePageTranscoder`). libxml2 keeps UTF-8 (the fast path: bytes go to it untouched) and Latin-1.
enum XMLEncodingSniffer {
    /// Who decodes the document.
    enum Decision: Equatable {
        /// libxml2 reads the bytes as they are (the fast path: UTF-8, or a name libxml2 knows).
        case libxml2
        /// iconv turns the bytes, after `skipping` a byte-order mark, from `encoding` into UTF-8 for libxml2.
        case transcode(from: String, skipping: Int)
        /// The document declares an encoding neither libxml2 nor iconv knows.
        case unknown(String)
    }

    /// How far into the document its XML declaration may end (it is the document's first thing).
    static let declarationWindow = 512

    /// The decision for a document starting with `head`, or nil while more bytes are needed to make it
    /// (`complete`: the document has no more).
    static func decide(_ head: [UInt8], complete: Bool) -> Decision? {
        guard head.count >= 4 || complete else { return nil }
        let b = head + [UInt8](repeating: 0xFF, count: max(0, 4 - head.count))
        switch (b[0], b[1], b[2], b[3]) {
        case (0x00, 0x00, 0xFE, 0xFF): return .transcode(from: "UTF-32BE", skipping: 4)
        case (0xFF, 0xFE, 0x00, 0x00): return .transcode(from: "UTF-32LE", skipping: 4)
        case (0x00, 0x00, 0x00, 0x3C): return .transcode(from: "UTF-32BE", skipping: 0)
        case (0x3C, 0x00, 0x00, 0x00): return .transcode(from: "UTF-32LE", skipping: 0)
        case (0xFE, 0xFF, _, _): return .transcode(from: "UTF-16BE", skipping: 2)
        case (0xFF, 0xFE, _, _): return .transcode(from: "UTF-16LE", skipping: 2)
        case (0x00, 0x3C, 0x00, 0x3F): return .transcode(from: "UTF-16BE", skipping: 0)
        case (0x3C, 0x00, 0x3F, 0x00): return .transcode(from: "UTF-16LE", skipping: 0)
        case (0xEF, 0xBB, 0xBF, _): return .libxml2
        case (0x4C, 0x6F, 0xA7, 0x94):
            // EBCDIC "<?xm": the declaration, in EBCDIC's invariant characters, names the code page.
            guard let declaration = declaration(head, end: [0x6F, 0x6E], complete: complete) else { return nil }
            let ascii = declaration.map { ebcdicInvariant[$0] ?? UInt8(ascii: "?") }
            guard let name = declaredEncoding(ascii) else { return .unknown("EBCDIC without a declared code page") }
            return converterName(for: name).map { .transcode(from: $0, skipping: 0) } ?? .unknown(name)
        case (0x3C, 0x3F, 0x78, 0x6D):
            guard let declaration = declaration(head, end: Array("?>".utf8), complete: complete) else { return nil }
            // libxml2 reads UTF-8 and Latin-1 itself; any other name goes to iconv (or a Mac table) first, whose
            // names and aliases are sure (libxml2 hands names to ICU, which reads some, "437" say, otherwise),
            // and to libxml2 only when iconv does not know it.
            guard let name = declaredEncoding(declaration), !libxml2Reads(name) else { return .libxml2 }
            // Bytes that spell "<?xm" one to a character are not UTF-16 or UTF-32, whatever the declaration says:
            // read as UTF-8, the declaration's name ignored.
            if claimsWideUnicode(name) { return .transcode(from: "UTF-8", skipping: 0) }
            if let converter = converterName(for: name) { return .transcode(from: converter, skipping: 0) }
            return libxml2Knows(name) ? .libxml2 : .unknown(name)
        default:
            return .libxml2
        }
    }

    /// The XML declaration at the start of `head` through `end`, or nil while it may still be coming. A declaration
    /// that does not end within `declarationWindow` bytes is returned as far as it goes.
    private static func declaration(_ head: [UInt8], end: [UInt8], complete: Bool) -> ArraySlice<UInt8>? {
        let window = head.prefix(declarationWindow)
        if let close = window.indices.dropLast().first(where: { window[$0] == end[0] && window[$0 + 1] == end[1] }) {
            return window[..<(close + 2)]
        }
        return complete || head.count >= declarationWindow ? window : nil
    }

    /// The `encoding="…"` value of an ASCII declaration.
    static func declaredEncoding<Bytes: Collection>(_ declaration: Bytes) -> String? where Bytes.Element == UInt8 {
        let bytes = Array(declaration)
        let keyword = Array("encoding".utf8)
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        var index = 0
        while index + keyword.count <= bytes.count {
            defer { index += 1 }
            guard bytes[index] == keyword[0], bytes[index..<(index + keyword.count)].elementsEqual(keyword) else { continue }
            var cursor = index + keyword.count
            while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") else { continue }
            cursor += 1
            while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'") else { continue }
            let quote = bytes[cursor]
            guard let close = bytes[(cursor + 1)...].firstIndex(of: quote) else { return nil }
            let name = String(decoding: bytes[(cursor + 1)..<close], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            return name.isEmpty ? nil : name
        }
        return nil
    }

    /// The encodings libxml2 decodes itself, without ICU: UTF-8 (and ASCII, a part of it) and Latin-1.
    private static func libxml2Reads(_ name: String) -> Bool {
        ["utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "iso_8859-1", "latin1", "latin-1"].contains(name.lowercased())
    }

    /// Whether `name` is one of UTF-16's, UTF-32's, UCS-2's or UCS-4's.
    private static func claimsWideUnicode(_ name: String) -> Bool {
        let squeezed = name.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " }
        return ["utf16", "utf32", "ucs2", "ucs4", "u16", "u32", "unicode", "csunicode", "iso10646"].contains { squeezed.hasPrefix($0) }
    }

    /// Whether libxml2 has a converter for `name` (its own, or one it finds by name).
    private static func libxml2Knows(_ name: String) -> Bool {
        guard let handler = newsstand_xmlFindCharEncodingHandler(name) else { return false }
        newsstand_xmlCharEncCloseFunc(handler)
        return true
    }

    /// The name `TextTranscoders` opens for the encoding a document calls `name` (a Mac table's, or glibc's own
    /// names and aliases, plus the spellings Python and feedparser accept that glibc does not), or nil when none
    /// knows it.
    static func converterName(for name: String) -> String? {
        let lowered = name.lowercased().trimmingCharacters(in: .whitespaces)
        let squeezed = lowered.filter { $0 != "-" && $0 != "_" && $0 != " " }
        if MacCodePageTranscoder.tables[squeezed] != nil { return squeezed }
        var candidates = [lowered, lowered.replacingOccurrences(of: "_", with: "-")]
        if let alias = aliases[squeezed] { candidates.append(alias) }
        // IBM's registered names: csIBM850, csPC850Multilingual… are IBM850 to glibc.
        if let number = squeezed.firstMatch(of: /^(?:csibm|cspc|ibm|cp)(\d{3,4})/)?.1 { candidates.append("IBM\(number)") }
        return candidates.first(where: IconvTranscoder.canOpen)
    }

    /// Spellings (lowercased, without `-`, `_` and spaces) that glibc does not know, and its name for each.
    private static let aliases: [String: String] = [
        "u8": "UTF-8", "utf": "UTF-8", "u16": "UTF-16", "utf16": "UTF-16", "u32": "UTF-32", "utf32": "UTF-32",
        "unicode": "UTF-16", "ucs2": "UCS-2", "ucs4": "UCS-4",
        "maclatin2": "MAC-CENTRALEUROPE", "maccentraleurope": "MAC-CENTRALEUROPE",
        "macroman": "MACINTOSH", "maccyrillic": "MAC-CYRILLIC", "macukraine": "MACUKRAINIAN",
        "cp1140": "IBM1140", "ibm1140": "IBM1140",
    ]

    /// EBCDIC's invariant characters (the same in every EBCDIC code page), enough to read a declaration.
    private static let ebcdicInvariant: [UInt8: UInt8] = {
        var table: [UInt8: UInt8] = [0x40: 0x20, 0x4B: 0x2E, 0x4C: 0x3C, 0x4D: 0x28, 0x4E: 0x2B, 0x50: 0x26, 0x5C: 0x2A,
                                     0x5D: 0x29, 0x5E: 0x3B, 0x60: 0x2D, 0x61: 0x2F, 0x6B: 0x2C, 0x6C: 0x25, 0x6D: 0x5F,
                                     0x6E: 0x3E, 0x6F: 0x3F, 0x7A: 0x3A, 0x7D: 0x27, 0x7E: 0x3D, 0x7F: 0x22,
                                     0x05: 0x09, 0x25: 0x0A, 0x0D: 0x0D]
        let rows: [(UInt8, String)] = [(0x81, "abcdefghi"), (0x91, "jklmnopqr"), (0xA2, "stuvwxyz"),
                                       (0xC1, "ABCDEFGHI"), (0xD1, "JKLMNOPQR"), (0xE2, "STUVWXYZ"), (0xF0, "0123456789")]
        for (start, letters) in rows {
            for (offset, letter) in letters.utf8.enumerated() { table[start + UInt8(offset)] = letter }
        }
        return table
    }()
}

import NewsstandImaging

/// Reads the colour in a terminal's answer to `OSC 11 ; ?` (its background colour).
///
/// The forms terminals use (X11's colour specifications): `rgb:R/G/B` with 1 to 4 hex digits a channel
/// (`rgb:ffff/ffff/dddd` from xterm, kitty, VTE; `rgb:ff/ff/dd` from some others), `rgba:R/G/B/A` (the
/// alpha ignored), and `#RGB`, `#RRGGBB`, `#RRRGGGBBB`, `#RRRRGGGGBBBB`. Each channel is scaled to 8 bits
/// (`f` is 255, `8000` is 128). Anything else is no colour.
enum BackgroundColorAnswer {
    /// The colour in the body of an OSC 11 answer (what follows `ESC ]`, before the terminator), e.g.
    /// `11;rgb:0000/0000/0000`; nil for anything that is not one.
    static func parse(oscBody body: String) -> RGBColor? {
        guard body.hasPrefix("11;"), body.utf8.count <= 64 else { return nil }
        return parse(colorSpecification: String(body.dropFirst(3)))
    }

    /// The colour a specification names (`rgb:…`, `rgba:…` or `#…`); nil for anything else.
    static func parse(colorSpecification text: String) -> RGBColor? {
        let lowered = text.lowercased()
        if lowered.hasPrefix("rgb:") || lowered.hasPrefix("rgba:") {
            let fields = lowered.drop { $0 != ":" }.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
            guard fields.count == (lowered.hasPrefix("rgba:") ? 4 : 3) else { return nil }
            let channels = fields.prefix(3).compactMap { channel($0) }
            guard channels.count == 3 else { return nil }
            return RGBColor(red: channels[0], green: channels[1], blue: channels[2])
        }
        if lowered.hasPrefix("#") {
            let digits = lowered.dropFirst()
            guard [3, 6, 9, 12].contains(digits.count) else { return nil }
            let width = digits.count / 3
            var channels: [UInt8] = []
            var start = digits.startIndex
            for _ in 0..<3 {
                let end = digits.index(start, offsetBy: width)
                guard let value = channel(digits[start..<end]) else { return nil }
                channels.append(value)
                start = end
            }
            return RGBColor(red: channels[0], green: channels[1], blue: channels[2])
        }
        return nil
    }

    /// One channel of 1 to 4 hex digits, scaled to 0–255.
    private static func channel(_ digits: Substring) -> UInt8? {
        guard (1...4).contains(digits.count), digits.allSatisfy(\.isHexDigit), let value = Int(digits, radix: 16) else { return nil }
        let maximum = (1 << (4 * digits.count)) - 1
        return UInt8((value * 255 + maximum / 2) / maximum)
    }
}

import Foundation
import Synchronization

/// Parses the date formats catalogs and feeds use in practice: ISO 8601 / RFC 3339 (with or
/// without time, seconds, fractions or zone; `T` or a space between date and time), RFC 822 / 1123
/// (with or without weekday and seconds, two-digit years, zone names such as GMT, EST, PDT, or
/// offsets such as -0700 and +05:30), and "yyyy-MM-dd HH:mm:ss Z" as rack-newsstand writes it.
///
/// The common forms are read by hand (fast: feeds hold thousands of dates); the rest fall back to
/// `DateFormatter` patterns. A date without a zone is taken as UTC.
///
/// A date before the year 1000 stands for "none" and is read as no date: calibre writes `0101-01-01` for a book
/// without a publication date, calibre-web `101-01-01` (the same, its year not padded), others `0001-01-01`; the
/// entry's other dates (`updated`, when it was added) stand in.
public enum FlexibleDateParser {
    /// The first moment that is a date rather than a placeholder for none (1000-01-01T00:00:00Z).
    static let earliestRealDate = Date(timeIntervalSince1970: -30_610_224_000)

    public static func parse(_ text: String) -> Date? {
        real(anyParse(text))
    }

    private static func anyParse(_ text: String) -> Date? {
        let trimmed = FeedText.trimmed(text)
        guard !trimmed.isEmpty else { return nil }
        var utf8 = trimmed
        if let date = utf8.withUTF8({ parseISO($0) ?? parseRFC822($0) }) { return date }
        return formatterDate(trimmed)
    }

    /// `date`, unless it is a placeholder for none.
    @inline(__always)
    private static func real(_ date: Date?) -> Date? {
        guard let date, date >= earliestRealDate else { return nil }
        return date
    }

    /// `parse(_:)` on text as UTF-8 bytes (a feed's text as read), making no String for the forms read by hand.
    public static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var start = 0, end = bytes.count
        while start < end, FeedText.isASCIIWhitespace(bytes[start]) { start += 1 }
        while end > start, FeedText.isASCIIWhitespace(bytes[end - 1]) { end -= 1 }
        guard start < end else { return nil }
        // Other white space (no-break spaces, U+2028) is trimmed by the String path.
        if bytes[start] >= 0x80 || bytes[end - 1] >= 0x80 { return parse(String(decoding: bytes, as: UTF8.self)) }
        let trimmed = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if let date = parseISO(trimmed) ?? parseRFC822(trimmed) { return real(date) }
        return real(formatterDate(String(decoding: trimmed, as: UTF8.self)))
    }

    private static func formatterDate(_ trimmed: String) -> Date? {
        formatters.withLock { formatters in
            for formatter in formatters {
                if let date = formatter.date(from: trimmed) { return date }
            }
            return nil
        }
    }

    // MARK: ISO 8601 / RFC 3339

    /// `YYYY-MM-DD`, optionally `[T ]hh:mm[:ss[.fff]]`, optionally `Z`, `±hh:mm`, `±hhmm`, `±hh` (space allowed before the zone).
    /// Also the basic forms `YYYYMMDD` and `YYYYMMDDThhmmss`.
    static func parseISO(_ s: UnsafeBufferPointer<UInt8>) -> Date? {
        var c = ByteCursor(s)
        guard let year = c.digits(4) else { return nil }
        let extended = c.skip(UInt8(ascii: "-"))
        guard let month = c.digits(2) else { return nil }
        if extended && !c.skip(UInt8(ascii: "-")) { return nil }
        guard let day = c.digits(2) else { return nil }
        var hour = 0, minute = 0, second = 0
        var fraction = 0.0
        var offset = 0
        if c.i < s.count {
            guard s[c.i] == UInt8(ascii: "T") || s[c.i] == UInt8(ascii: "t") || s[c.i] == UInt8(ascii: " ") else { return nil }
            c.i += 1
            guard let h = c.digits(2) else { return nil }
            _ = c.skip(UInt8(ascii: ":"))
            guard let m = c.digits(2) else { return nil }
            hour = h
            minute = m
            if c.skip(UInt8(ascii: ":")) || (c.i < s.count && s[c.i] >= 48 && s[c.i] <= 57) {
                guard let sec = c.digits(2) else { return nil }
                second = sec
                if c.skip(UInt8(ascii: ".")) || c.skip(UInt8(ascii: ",")) {
                    var scale = 0.1
                    while c.i < s.count, s[c.i] >= 48 && s[c.i] <= 57 {
                        fraction += Double(s[c.i] - 48) * scale
                        scale /= 10
                        c.i += 1
                    }
                }
            }
            _ = c.skip(UInt8(ascii: " "))
            if c.i < s.count {
                if s[c.i] == UInt8(ascii: "Z") || s[c.i] == UInt8(ascii: "z") {
                    c.i += 1
                } else if s[c.i] == UInt8(ascii: "+") || s[c.i] == UInt8(ascii: "-") {
                    let sign = s[c.i] == UInt8(ascii: "-") ? -1 : 1
                    c.i += 1
                    guard let oh = c.digits(2) else { return nil }
                    _ = c.skip(UInt8(ascii: ":"))
                    let om = c.i < s.count ? (c.digits(2) ?? 0) : 0
                    offset = sign * (oh * 3600 + om * 60)
                } else {
                    return nil
                }
            }
            guard c.i == s.count else { return nil }
        }
        return makeDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                        fraction: fraction, offset: offset)
    }

    /// A position in a date's bytes, read forward by the hand-written parsers (a struct, not nested
    /// functions around a captured index, which would check exclusive access on every byte).
    private struct ByteCursor {
        let s: UnsafeBufferPointer<UInt8>
        var i = 0

        init(_ s: UnsafeBufferPointer<UInt8>) { self.s = s }

        /// `count` decimal digits as a number (moving past them), or nil (not moving) when there are not so many.
        mutating func digits(_ count: Int) -> Int? {
            guard i + count <= s.count else { return nil }
            var value = 0
            for k in i..<(i + count) {
                guard s[k] >= 0x30 && s[k] <= 0x39 else { return nil }
                value = value * 10 + Int(s[k] - 0x30)
            }
            i += count
            return value
        }

        /// Moves past `byte` when it is next.
        mutating func skip(_ byte: UInt8) -> Bool {
            guard i < s.count, s[i] == byte else { return false }
            i += 1
            return true
        }
    }

    // MARK: RFC 822 / 1123

    private static let packedMonths: [UInt32] = months.map(pack)
    /// `zones` keyed by the name's bytes packed into an integer, commonest first (read without a String).
    private static let packedZones: [(name: UInt32, hours: Int)] = zones.map { (pack($0.key), $0.value) }
        .sorted { ($0.name == pack("gmt") ? 0 : 1, $0.name) < ($1.name == pack("gmt") ? 0 : 1, $1.name) }
    private static func pack(_ name: String) -> UInt32 { name.utf8.reduce(0) { $0 << 8 | UInt32($1) } }
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let zones: [String: Int] = [
        "ut": 0, "utc": 0, "gmt": 0, "z": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6,
        "pst": -8, "pdt": -7, "a": -1, "m": -12, "n": 1, "y": 12, "cet": 1, "cest": 2, "bst": 1, "jst": 9,
    ]

    /// `[Weekday,] D Mon YYYY hh:mm[:ss] [zone]`: tolerant of missing commas, two-digit years
    /// (1950–2049), single-digit days and hours, and a missing zone (UTC).
    static func parseRFC822(_ s: UnsafeBufferPointer<UInt8>) -> Date? {
        if let date = parseUsualRFC822(s) { return date }
        let words = String(decoding: s, as: UTF8.self).lowercased()
            .split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
        var index = 0
        guard !words.isEmpty else { return nil }
        if words[0].count >= 3, words[0].first!.isLetter { index = 1 } // weekday
        guard words.count >= index + 4 else { return nil }
        var dayWord = words[index], monthWord = words[index + 1]
        if Int(dayWord) == nil, Int(monthWord) != nil { swap(&dayWord, &monthWord) } // "Jan 01 2004"
        guard let day = Int(dayWord), let month = months.firstIndex(of: String(monthWord.prefix(3))),
              var year = Int(words[index + 2]) else { return nil }
        if words[index + 2].count == 2 { year += year < 50 ? 2000 : 1900 }
        let time = words[index + 3].split(separator: ":").map { Int($0) }
        guard time.count >= 2, time.allSatisfy({ $0 != nil }) else { return nil }
        var offset = 0
        if words.count > index + 4 {
            let zone = words[index + 4]
            if let hours = zones[zone] {
                offset = hours * 3600
            } else if let first = zone.first, first == "+" || first == "-" {
                let number = zone.dropFirst().replacingOccurrences(of: ":", with: "")
                guard number.count == 4 || number.count == 2, let value = Int(number) else { return nil }
                let minutes = number.count == 4 ? (value / 100) * 60 + value % 100 : value * 60
                offset = (first == "-" ? -1 : 1) * minutes * 60
            } else if zone.hasPrefix("gmt") || zone.hasPrefix("utc") {
                offset = 0
            } else {
                return nil
            }
        }
        return makeDate(year: year, month: month + 1, day: day, hour: time[0]!, minute: time[1]!,
                        second: time.count > 2 ? time[2]! : 0, fraction: 0, offset: offset)
    }

    /// `Www, D[D] Mon YYYY hh:mm[:ss] ZONE` exactly, the form nearly every RSS feed writes, read in
    /// place (zone: a name from `zones` or ±hhmm). Anything else is nil, for the general reader,
    /// which gives the same date for whatever this accepts.
    private static func parseUsualRFC822(_ s: UnsafeBufferPointer<UInt8>) -> Date? {
        var c = ByteCursor(s)
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        let space = UInt8(ascii: " "), colon = UInt8(ascii: ":")
        guard s.count >= 20, isLetter(s[0]), isLetter(s[1]), isLetter(s[2]), s[3] == UInt8(ascii: ","), s[4] == space else { return nil }
        c.i = 5
        guard let day = (c.i + 1 < s.count && isDigit(s[c.i + 1])) ? c.digits(2) : c.digits(1), c.skip(space) else { return nil }
        guard c.i + 4 <= s.count, isLetter(s[c.i]), isLetter(s[c.i + 1]), isLetter(s[c.i + 2]), s[c.i + 3] == space else { return nil }
        let monthName = UInt32(s[c.i] | 0x20) << 16 | UInt32(s[c.i + 1] | 0x20) << 8 | UInt32(s[c.i + 2] | 0x20)
        guard let month = packedMonths.firstIndex(of: monthName) else { return nil }
        c.i += 4
        guard let year = c.digits(4), c.skip(space), let hour = c.digits(2), c.skip(colon), let minute = c.digits(2) else { return nil }
        var second = 0
        if c.skip(colon) {
            guard let value = c.digits(2) else { return nil }
            second = value
        }
        guard c.skip(space), c.i < s.count else { return nil }
        var offset = 0
        if s[c.i] == UInt8(ascii: "+") || s[c.i] == UInt8(ascii: "-") {
            let sign = s[c.i] == UInt8(ascii: "-") ? -1 : 1
            c.i += 1
            guard let value = c.digits(4) else { return nil }
            offset = sign * ((value / 100) * 60 + value % 100) * 60
        } else {
            guard s.count - c.i <= 4 else { return nil }
            var name: UInt32 = 0
            for k in c.i..<s.count {
                guard isLetter(s[k]) else { return nil }
                name = name << 8 | UInt32(s[k] | 0x20)
            }
            guard let zone = packedZones.first(where: { $0.name == name }) else { return nil }
            offset = zone.hours * 3600
            c.i = s.count
        }
        guard c.i == s.count else { return nil }
        return makeDate(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second, fraction: 0, offset: offset)
    }

    private static func makeDate(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
                                 fraction: Double, offset: Int) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day), (0...24).contains(hour), (0...59).contains(minute),
              (0...60).contains(second) else { return nil }
        // Days from civil (Howard Hinnant's algorithm), proleptic Gregorian, UTC.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    // MARK: Fallback patterns

    /// `DateFormatter` is not safe to share between threads: callers take turns.
    private static let formatters = Mutex(patterns.map { pattern in
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        return formatter
    })

    private static let patterns = [
        "EEE, dd MMM yyyy HH:mm:ss zzz", "EEE, d MMM yyyy HH:mm:ss Z", "dd MMM yyyy HH:mm:ss zzz",
        "EEE, dd MMM yyyy HH:mm zzz", "yyyy-MM-dd HH:mm:ss Z", "yyyy-MM-dd'T'HH:mm:ssZ", "yyyy-MM-dd'T'HH:mm:ss",
        "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd", "EEE MMM d HH:mm:ss zzz yyyy", "EEE MMM d HH:mm:ss yyyy",
        "MMMM d, yyyy", "MMM d, yyyy", "d MMMM yyyy",
    ]
}

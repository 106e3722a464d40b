import Foundation

/// The rules for an issue's handle: the name people see and type (`small-engines-2026`), unique within its
/// publication, chosen once when the issue arrives and never changed after. The catalog's own id (`Issue.name`,
/// often `urn:uuid:…` or a URL) stays the key refreshes are matched by.
///
/// A catalog id that is already a short lowercase word or number (`2025-autumn`) is kept as it is. Any other id
/// gives way to a slug of the title, with the issue's year when the title lacks it and the date is a real one
/// (a feed without dates gives 1970). When that is taken, the title with the full date; then `IssueHandleAllocator`
/// numbers the last choice `-2`, `-3`…
public enum IssueHandle {
    /// The longest catalog id kept as a handle, and about the longest title part of a handle.
    static let maximumLength = 40

    /// Whether a catalog id can serve as a handle as it is: 1–40 of `a-z 0-9 - . _`, starting and ending with a
    /// letter or digit, and no run that looks like a hash or a UUID (8 or more hex digits mixing letters and digits).
    public static func isTypeable(_ catalogID: String) -> Bool {
        let bytes = Array(catalogID.utf8)
        guard (1...maximumLength).contains(bytes.count), let first = bytes.first, let last = bytes.last,
              isLowercaseAlphanumeric(first), isLowercaseAlphanumeric(last),
              bytes.allSatisfy({ isLowercaseAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") })
        else { return false }
        let runs = bytes.split(whereSeparator: { !isLowercaseAlphanumeric($0) })
        return !runs.contains { run in
            run.count >= 8 && run.allSatisfy(isHexDigit) && run.contains(where: isDigit) && run.contains(where: { !isDigit($0) })
        }
    }

    /// The handles to try for a new issue, best first.
    public static func candidates(catalogID: String, title: String, date: Date) -> [String] {
        if isTypeable(catalogID) { return [catalogID] }
        let words = titleSlug(title)
        guard let day = CalendarDay(date) else { return [words] }
        let year = String(day.year)
        let hasYear = words.split(separator: "-").contains { $0 == year }
        let withYear = hasYear ? words : "\(words)-\(year)"
        let monthAndDay = "\(twoDigits(day.month))-\(twoDigits(day.day))"
        // "autumn-2025" → "autumn-2025-10-01"; "small-engines" → "small-engines-2026-03-14".
        let withDate = words.hasSuffix("-" + year) || words == year ? "\(words)-\(monthAndDay)" : "\(words)-\(year)-\(monthAndDay)"
        return [withYear, withDate]
    }

    /// A lowercase ASCII slug of a title, accents folded (`Café Été` → `cafe-ete`), cut to about 40 characters at a word.
    static func titleSlug(_ title: String) -> String {
        let isASCII = title.utf8.allSatisfy { $0 < 0x80 }
        let folded = isASCII ? title : title.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        var slug = PathComponent.slug(folded, fallback: "issue")
        if slug.count > maximumLength {
            let cut = slug.prefix(maximumLength)
            let cutsAWord = slug[cut.endIndex] != "-"
            if cutsAWord, let dash = cut.lastIndex(of: "-"), cut.distance(from: cut.startIndex, to: dash) >= maximumLength / 2 {
                slug = String(cut[..<dash])
            } else {
                slug = String(cut)
            }
            while slug.hasSuffix("-") { slug.removeLast() }
        }
        return slug
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    private static func isLowercaseAlphanumeric(_ byte: UInt8) -> Bool { isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) }
    private static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) }

    /// A date's day in UTC, when it is a real one: not the 1970 of a feed without dates, a year of four digits.
    struct CalendarDay {
        let year: Int
        let month: Int
        let day: Int

        init?(_ date: Date) {
            let seconds = date.timeIntervalSince1970
            guard seconds.isFinite, abs(seconds) >= 86_400 * 2, abs(seconds) < 1e12 else { return nil }
            var time = time_t(seconds.rounded(.down))
            var parts = tm()
            guard gmtime_r(&time, &parts) != nil else { return nil }
            year = Int(parts.tm_year) + 1900
            month = Int(parts.tm_mon) + 1
            day = Int(parts.tm_mday)
            guard (1000...9999).contains(year) else { return nil }
        }
    }
}

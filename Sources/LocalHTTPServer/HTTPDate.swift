import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// HTTP dates (RFC 9110 §5.6.7): formats IMF-fixdate (RFC 1123) and parses it plus the obsolete
/// RFC 850 and asctime forms. Locale-independent and thread-safe (no DateFormatter).
enum HTTPDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT`; sub-second parts are dropped.
    static func format(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let year = Int(parts.tm_year) + 1900
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(weekdays[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(yearText) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// Parses IMF-fixdate, RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) or asctime (`Sun Nov  6 08:49:37 1994`).
    static func parse(_ text: String) -> Date? {
        let fields = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var day: Int?, month: Int?, year: Int?, time: String?
        if fields.count == 6, fields[0].hasSuffix(","), fields[5] == "GMT" {
            day = Int(fields[1]); month = monthIndex(fields[2]); year = Int(fields[3]); time = fields[4]
        } else if fields.count == 4, fields[0].hasSuffix(","), fields[3] == "GMT" {
            let dmy = fields[1].split(separator: "-").map(String.init)
            guard dmy.count == 3, var yy = Int(dmy[2]) else { return nil }
            if dmy[2].count == 2 { yy += yy < 70 ? 2000 : 1900 }
            day = Int(dmy[0]); month = monthIndex(dmy[1]); year = yy; time = fields[2]
        } else if fields.count == 5 {
            month = monthIndex(fields[1]); day = Int(fields[2]); time = fields[3]; year = Int(fields[4])
        }
        guard let day, let month, let year, let time, (1...31).contains(day), year >= 1900 else { return nil }
        let hms = time.split(separator: ":").map { Int($0) }
        guard hms.count == 3, let h = hms[0], let m = hms[1], let s = hms[2],
              (0...23).contains(h), (0...59).contains(m), (0...60).contains(s) else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(h)
        parts.tm_min = Int32(m)
        parts.tm_sec = Int32(s)
        let seconds = timegm(&parts)
        guard seconds != -1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func monthIndex(_ name: String) -> Int? {
        months.firstIndex { $0.caseInsensitiveCompare(name) == .orderedSame }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Dates as the interface shows them: "21 November 2026" (UTC, as catalogs date issues) and
/// "21 Nov 2026 14:05" (local time, for when something last happened).
///
/// Formatted from the C library's broken-down time (`gmtime_r`, `localtime_r`) in English, as the rest of
/// the interface is: no `DateFormatter`, whose ICU set-up costs a start-up's worth of time and megabytes.
enum DateText {
    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]

    static func long(_ date: Date) -> String {
        guard let parts = brokenDown(date, local: false) else { return "" }
        return "\(parts.tm_mday) \(monthNames[Int(parts.tm_mon)]) \(Int(parts.tm_year) + 1900)"
    }

    static func short(_ date: Date) -> String {
        guard let parts = brokenDown(date, local: true) else { return "" }
        let month = monthNames[Int(parts.tm_mon)].prefix(3)
        return "\(parts.tm_mday) \(month) \(Int(parts.tm_year) + 1900) " + twoDigits(parts.tm_hour) + ":" + twoDigits(parts.tm_min)
    }

    private static func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func brokenDown(_ date: Date, local: Bool) -> tm? {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, abs(seconds) < 1e15 else { return nil }
        var time = time_t(seconds)
        var parts = tm()
        let result = local ? localtime_r(&time, &parts) : gmtime_r(&time, &parts)
        guard result != nil, (0..<12).contains(Int(parts.tm_mon)) else { return nil }
        return parts
    }
}

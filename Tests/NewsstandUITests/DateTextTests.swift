import Foundation
import XCTest
@testable import NewsstandUI

/// Dates as shown agree with Foundation's formatter, in UTC and in local time, across centuries.
final class DateTextTests: XCTestCase {
    private func formatter(_ format: String, _ zone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = zone
        formatter.dateFormat = format
        return formatter
    }

    func testLongAndShortDatesMatchTheFormatter() {
        let long = formatter("d MMMM yyyy", TimeZone(identifier: "UTC")!)
        let short = formatter("d MMM yyyy HH:mm", TimeZone.current)
        var seconds: Double = -2_000_000_000
        while seconds < 4_000_000_000 {
            let date = Date(timeIntervalSince1970: seconds)
            XCTAssertEqual(DateText.long(date), long.string(from: date), "\(seconds)")
            XCTAssertEqual(DateText.short(date).replacingOccurrences(of: "Sept", with: "Sep"),
                           short.string(from: date).replacingOccurrences(of: "Sept", with: "Sep"), "\(seconds)")
            seconds += 7_777_777.5
        }
        XCTAssertEqual(DateText.long(Date(timeIntervalSince1970: 1_795_478_400)), "24 November 2026")
        XCTAssertEqual(DateText.long(Date(timeIntervalSince1970: .nan)), "", "a broken date shows nothing rather than crashing")
    }
}

import Foundation
import XCTest
@testable import NewsstandCore

/// The hand-written date readers (RFC 822 and RFC 3339 over UTF-8 bytes) against a reference worked
/// out here from the date's parts, over many dates, every zone the parser names, numeric offsets,
/// and malformed dates; and the byte path against the String path.
final class FlexibleDateParserTests: XCTestCase {
    /// Zones as RFC 822 (and the parser's few additions) define them, in hours east of UTC.
    private static let zones: [(String, Int)] = [
        ("GMT", 0), ("UT", 0), ("UTC", 0), ("Z", 0), ("EST", -5), ("EDT", -4), ("CST", -6), ("CDT", -5), ("MST", -7), ("MDT", -6),
        ("PST", -8), ("PDT", -7), ("A", -1), ("M", -12), ("N", 1), ("Y", 12), ("CET", 1), ("CEST", 2), ("BST", 1), ("JST", 9),
        ("gmt", 0), ("Pdt", -7),
    ]
    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private func reference(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int, offsetSeconds: Int) -> TimeInterval {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
        return date.timeIntervalSince1970 - TimeInterval(offsetSeconds)
    }

    private func bytesAndText(_ text: String) -> (Date?, Date?) {
        (Array(text.utf8).withUnsafeBufferPointer { FlexibleDateParser.parse(utf8: $0) }, FlexibleDateParser.parse(text))
    }

    func testRFC822DatesInEveryZoneAndOffset() {
        var random = SeededRandom(seed: 822)
        var checked = 0
        for _ in 0..<4_000 {
            let year = Int.random(in: 1970...2037, using: &random), month = Int.random(in: 1...12, using: &random)
            let day = Int.random(in: 1...28, using: &random), hour = Int.random(in: 0...23, using: &random)
            let minute = Int.random(in: 0...59, using: &random), second = Int.random(in: 0...59, using: &random)
            let withSeconds = Bool.random(using: &random), twoDigitDay = Bool.random(using: &random)
            let dayText = twoDigitDay ? String(format: "%02d", day) : String(day)
            let time = String(format: "%02d:%02d", hour, minute) + (withSeconds ? String(format: ":%02d", second) : "")
            let offsetSeconds: Int, zone: String
            if Bool.random(using: &random) {
                let named = Self.zones.randomElement(using: &random)!
                (zone, offsetSeconds) = (named.0, named.1 * 3600)
            } else {
                let minutes = Int.random(in: -12 * 60...14 * 60, using: &random) / 15 * 15
                zone = (minutes < 0 ? "-" : "+") + String(format: "%02d%02d", abs(minutes) / 60, abs(minutes) % 60)
                offsetSeconds = minutes * 60
            }
            let text = "\(Self.weekdays.randomElement(using: &random)!), \(dayText) \(Self.months[month - 1]) \(year) \(time) \(zone)"
            let expected = reference(year, month, day, hour, minute, withSeconds ? second : 0, offsetSeconds: offsetSeconds)
            let (fromBytes, fromText) = bytesAndText(text)
            XCTAssertEqual(fromBytes?.timeIntervalSince1970, expected, text)
            XCTAssertEqual(fromText?.timeIntervalSince1970, expected, text)
            checked += 1
        }
        XCTAssertEqual(checked, 4_000)
    }

    func testRFC3339DatesWithOffsetsAndFractions() {
        var random = SeededRandom(seed: 3339)
        for _ in 0..<4_000 {
            let year = Int.random(in: 1900...2099, using: &random), month = Int.random(in: 1...12, using: &random)
            let day = Int.random(in: 1...28, using: &random), hour = Int.random(in: 0...23, using: &random)
            let minute = Int.random(in: 0...59, using: &random), second = Int.random(in: 0...59, using: &random)
            let millis = Int.random(in: 0...999, using: &random)
            let fraction = Bool.random(using: &random)
            let separator = ["T", "t", " "].randomElement(using: &random)!
            var text = String(format: "%04d-%02d-%02d", year, month, day) + separator + String(format: "%02d:%02d:%02d", hour, minute, second)
            if fraction { text += String(format: ".%03d", millis) }
            let offsetMinutes: Int
            switch Int.random(in: 0...3, using: &random) {
            case 0: text += "Z"; offsetMinutes = 0
            case 1: text += "z"; offsetMinutes = 0
            default:
                offsetMinutes = Int.random(in: -12 * 60...14 * 60, using: &random) / 15 * 15
                let colon = Bool.random(using: &random) ? ":" : ""
                text += (offsetMinutes < 0 ? "-" : "+") + String(format: "%02d", abs(offsetMinutes) / 60) + colon + String(format: "%02d", abs(offsetMinutes) % 60)
            }
            let expected = reference(year, month, day, hour, minute, second, offsetSeconds: offsetMinutes * 60) + (fraction ? Double(millis) / 1000 : 0)
            let (fromBytes, fromText) = bytesAndText(text)
            XCTAssertEqual(fromBytes?.timeIntervalSince1970 ?? .nan, expected, accuracy: 0.000_5, text)
            XCTAssertEqual(fromBytes, fromText, text)
        }
    }

    func testMalformedDatesAreRefusedOrReadAsBefore() {
        let refused = ["", " ", "not a date", "2003-13-01", "2003-12-32", "32 Jan 2004 10:00 GMT", "Mon, 06 Jan 2025 10:00:00 XYZ",
                       "Mon, 06 Jan 2025 10:00:00 ESTX", "Mon, 06 Foo 2025 10:00:00 GMT", "Mon, 06 Jan 2025 24:61:00 GMT",
                       "2025-01-06T10:00:00Q", "Mon, 06 Jan 2025 10:00:00 G1T"]
        for text in refused {
            let (fromBytes, fromText) = bytesAndText(text)
            XCTAssertNil(fromBytes, text.debugDescription)
            XCTAssertNil(fromText, text.debugDescription)
        }
        // Read by the general RFC 822 reader or the formatters, the same from bytes as from text. The
        // odd ones at the end are pinned as the parser read them before it read bytes in place.
        let tolerated: [(String, TimeInterval)] = [
            ("Mon, 6 Jan 2025 10:00 +0130", 1_736_152_200), ("Mon,06 Jan 2025 10:00:00", 1_736_157_600),
            ("06 Jan 2025 10:00:00 GMT", 1_736_157_600), ("Mon, 06 Jan 25 10:00:00 GMT", 1_736_157_600),
            ("Mon, 06 Jan 2025 10:00:00 GMT+1", 1_736_157_600), ("Mon, 06 Jan 2025 10:00:00 +01:00", 1_736_154_000),
            ("Mon, Jan 06 2025 10:00:00 GMT", 1_736_157_600), ("\u{A0}2025-01-06\u{A0}", 1_736_121_600),
            ("  2025-01-06T10:00:00Z\n", 1_736_157_600), ("20250106T100000Z", 1_736_157_600), ("2013-04-30 09:59:54 -0700", 1_367_341_194),
            ("Mon, 06 January 2025 10:00:00 GMT", 1_736_157_600), ("mon, 06 jan 2025 10:00:00 gmt", 1_736_157_600),
            ("Mon, 06 Jan 2025 1:00:00 GMT +", 1_736_125_200), ("2025-01-06T10:00:00+5", 1_736_139_600),
            ("2025-01-06T1000:00Z", 1_736_157_600), ("Mon, 06 Jan 2025 10:00:00 +12345", 1_736_152_575),
        ]
        for (text, expected) in tolerated {
            let (fromBytes, fromText) = bytesAndText(text)
            XCTAssertEqual(fromBytes?.timeIntervalSince1970, expected, text.debugDescription)
            XCTAssertEqual(fromText?.timeIntervalSince1970, expected, text.debugDescription)
        }
    }
}

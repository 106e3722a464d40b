import Foundation
import XCTest
@testable import NewsstandCore

/// The log of libxml2's events that `XMLPushParser` hands to its reader a piece at a time: events come back in
/// order with their bytes, a full log refuses more until it is read, and an event larger than the log is never
/// kept. Through the feed reader: a piece whose events fill the log several times, and attributes and text larger
/// than the whole log, read as they always did.
final class XMLEventLogTests: XCTestCase {
    private let base = URL(string: "https://example.com/feeds/feed.xml")!

    /// NUL-terminated bytes that outlive the test, standing for names in libxml2's dictionary.
    private static func name(_ text: String) -> UnsafePointer<UInt8> {
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: text.utf8.count + 1)
        bytes.initialize(from: Array(text.utf8) + [0], count: text.utf8.count + 1)
        return UnsafePointer(bytes)
    }

    // Never freed, never changed: read from any test.
    nonisolated(unsafe) private static let item = name("item"), link = name("link"), href = name("href"), rel = name("rel")
    nonisolated(unsafe) private static let xml = name("xml"), atom = name("http://www.w3.org/2005/Atom")

    /// Records a start tag whose attributes are (name, prefix, value), their values in a buffer that is
    /// overwritten after the call, as libxml2's input is.
    private func recordStart(_ log: XMLEventLog, _ localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>? = nil,
                             attributes: [(UnsafePointer<UInt8>, UnsafePointer<UInt8>?, String)]) -> Bool {
        var values = Array(attributes.map(\.2).joined().utf8)
        var pointers = [UnsafePointer<UInt8>?](repeating: nil, count: attributes.count * 5)
        let recorded = values.withUnsafeMutableBufferPointer { buffer -> Bool in
            var offset = 0
            for (index, attribute) in attributes.enumerated() {
                let length = attribute.2.utf8.count
                pointers[index * 5] = attribute.0
                pointers[index * 5 + 1] = attribute.1
                pointers[index * 5 + 3] = UnsafePointer(buffer.baseAddress! + offset)
                pointers[index * 5 + 4] = UnsafePointer(buffer.baseAddress! + offset + length)
                offset += length
            }
            let result = pointers.withUnsafeMutableBufferPointer {
                log.recordStart(localName: localName, namespaceURI: namespaceURI, attributes: $0.baseAddress, attributeCount: attributes.count)
            }
            // libxml2 moves on: the bytes the values were read from change.
            for index in buffer.indices { buffer[index] = UInt8(ascii: "#") }
            return result
        }
        return recorded
    }

    private func recordText(_ log: XMLEventLog, _ text: String) -> Bool {
        Array(text.utf8).withUnsafeBufferPointer { log.recordText($0.baseAddress!, count: $0.count) }
    }

    /// Every event left in the log, as text: `<name attr=value …>`, `</name>`, `"text"`.
    private func drain(_ log: XMLEventLog) -> [String] {
        var events: [String] = []
        while let event = log.next() {
            switch event {
            case let .start(localName, namespaceURI, attributes, attributeCount):
                var text = "<" + String(cString: localName) + (namespaceURI.map { "{\(String(cString: $0))}" } ?? "")
                for index in 0..<attributeCount {
                    let prefix = attributes![index * 5 + 1].map { String(cString: $0) + ":" } ?? ""
                    let value = UnsafeBufferPointer(start: attributes![index * 5 + 3]!,
                                                    count: attributes![index * 5 + 4]! - attributes![index * 5 + 3]!)
                    text += " " + prefix + String(cString: attributes![index * 5]!) + "=" + String(decoding: value, as: UTF8.self)
                }
                events.append(text + ">")
            case let .end(localName, namespaceURI):
                events.append("</" + String(cString: localName) + (namespaceURI.map { "{\(String(cString: $0))}" } ?? "") + ">")
            case let .text(bytes):
                events.append("\"" + String(decoding: bytes, as: UTF8.self) + "\"")
            }
        }
        return events
    }

    func testEventsComeBackInOrderWithTheirBytes() {
        let log = XMLEventLog()
        XCTAssertTrue(log.isEmpty)
        XCTAssertTrue(recordStart(log, Self.item, namespaceURI: Self.atom, attributes: []))
        XCTAssertTrue(recordStart(log, Self.link, attributes: [(Self.rel, nil, "alternate"), (Self.href, Self.xml, "a/b.epub?x=1"),
                                                              (Self.href, nil, "")]))
        // Pieces in a row are one text, as the reader wants it (libxml2 gives one for each entity reference).
        for piece in ["Tea, maps ", "&", "", " the long way round ✓"] { XCTAssertTrue(recordText(log, piece)) }
        XCTAssertTrue(log.recordEnd(localName: Self.link, namespaceURI: nil))
        XCTAssertTrue(recordText(log, "\n"))
        XCTAssertTrue(log.recordEnd(localName: Self.item, namespaceURI: Self.atom))
        XCTAssertFalse(log.isEmpty)
        XCTAssertEqual(drain(log), [
            "<item{http://www.w3.org/2005/Atom}>", "<link rel=alternate xml:href=a/b.epub?x=1 href=>",
            "\"Tea, maps & the long way round ✓\"", "</link>", "\"\n\"", "</item{http://www.w3.org/2005/Atom}>",
        ])
        XCTAssertTrue(log.isEmpty, "read to its end, the log is empty again")
        XCTAssertNil(log.next())
    }

    func testAFullLogRefusesMoreUntilItIsRead() {
        let log = XMLEventLog()
        let piece = String(repeating: "x", count: 1000)
        var kept = 0
        while recordText(log, piece) {
            kept += 1
            XCTAssertTrue(log.recordEnd(localName: Self.link, namespaceURI: nil))
        }
        XCTAssertEqual(kept, XMLEventLog.capacityBytes / 1000)
        XCTAssertFalse(recordText(log, piece))
        XCTAssertFalse(recordStart(log, Self.link, attributes: [(Self.href, nil, piece)]), "nor a value that does not fit")
        XCTAssertTrue(log.recordEnd(localName: Self.item, namespaceURI: nil), "an event with no bytes still fits")
        XCTAssertEqual(drain(log), Array(repeating: ["\"\(piece)\"", "</link>"], count: kept).flatMap { $0 } + ["</item>"])
        XCTAssertTrue(recordText(log, piece), "read, the log takes events again")
        XCTAssertEqual(drain(log), ["\"\(piece)\""])

        // So many events that the log has no room for one more, however small.
        var events = 0
        while log.recordEnd(localName: Self.item, namespaceURI: nil) { events += 1 }
        XCTAssertEqual(events, XMLEventLog.recordCapacity)
        XCTAssertFalse(recordText(log, "a"))
        XCTAssertEqual(drain(log).count, events)
        // So many attributes that their pointers do not fit.
        let attributes = Array(repeating: (Self.rel, Optional<UnsafePointer<UInt8>>.none, "v"), count: XMLEventLog.pointerCapacity / 5 + 1)
        XCTAssertFalse(recordStart(log, Self.link, attributes: attributes))
        XCTAssertTrue(recordStart(log, Self.link, attributes: Array(attributes.dropLast())))
        XCTAssertEqual(drain(log), ["<link" + String(repeating: " rel=v", count: attributes.count - 1) + ">"])
    }

    func testAnEventLargerThanTheLogIsNeverKept() {
        let log = XMLEventLog()
        let huge = String(repeating: "y", count: XMLEventLog.capacityBytes + 1)
        XCTAssertFalse(recordText(log, huge))
        XCTAssertFalse(recordStart(log, Self.link, attributes: [(Self.href, nil, huge)]))
        XCTAssertTrue(log.isEmpty)
        XCTAssertTrue(recordText(log, String(huge.dropLast())), "the most one piece of text may be")
    }

    // MARK: Through the reader

    /// One piece of about 600 KB whose events fill the log several times over, among them attributes and texts
    /// larger than the whole log (delivered on their own, between the others): every item is read, in order, with
    /// its own values.
    func testAPieceThatFillsTheLogManyTimesReadsInOrder() throws {
        let hugeHref = "https://example.com/" + String(repeating: "h", count: XMLEventLog.capacityBytes + 100) + ".epub"
        let hugeSummary = String(repeating: "s", count: 2 * XMLEventLog.capacityBytes)
        var feed = "<rss version=\"2.0\"><channel><title>T</title>"
        let count = 2_000
        for index in 0..<count {
            let href = index == 700 ? hugeHref : "https://example.com/\(index).epub"
            let summary = index == 1_300 ? hugeSummary : "Summary \(index) &amp; more"
            feed += "<item><guid>item-\(index)</guid><title>Item \(index)</title><description>\(summary)</description>"
                + "<enclosure url=\"\(href)\" type=\"application/epub+zip\" length=\"\(index + 1)\"/></item>"
        }
        feed += "</channel></rss>"
        let data = Data(feed.utf8)
        XCTAssertGreaterThan(data.count, 4 * XMLEventLog.capacityBytes)
        let reader = XMLFeedReader(feedURL: base)
        data.withUnsafeBytes { _ = reader.feed($0) }
        let (document, problem) = try reader.finish()
        XCTAssertNil(problem)
        XCTAssertEqual(document.items.count, count)
        for (index, item) in document.items.enumerated() {
            XCTAssertEqual(item.id, "item-\(index)")
            XCTAssertEqual(item.title, "Item \(index)")
            XCTAssertEqual(item.summary, index == 1_300 ? hugeSummary : "Summary \(index) & more")
            XCTAssertEqual(item.enclosures.first?.url.absoluteString, index == 700 ? hugeHref : "https://example.com/\(index).epub")
            XCTAssertEqual(item.enclosures.first?.length, "\(index + 1)")
            if item.id != "item-\(index)" { break }
        }
    }
}

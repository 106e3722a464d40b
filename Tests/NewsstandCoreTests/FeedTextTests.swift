import Foundation
import XCTest
import NewsstandContent
@testable import NewsstandCore

/// The byte-level helpers the feed reader uses on every element give what Foundation's and the
/// general paths give.
final class FeedTextTests: XCTestCase {
    func testTrimmedIsFoundationsTrimming() {
        let samples = ["", " ", "a", " a ", "\t\na b\r\n", "\u{A0}x\u{A0}", " \u{2028}y", "z\u{3000}", "\u{85}", "日本 ", " \u{301}", "\u{B}v\u{C}"]
        for sample in samples {
            XCTAssertEqual(FeedText.trimmed(sample), sample.trimmingCharacters(in: .whitespacesAndNewlines), sample.debugDescription)
            XCTAssertEqual(FeedText.trimmed(sample, newlines: false), sample.trimmingCharacters(in: .whitespaces), sample.debugDescription)
        }
    }

    func testContainsFindsBytes() {
        XCTAssertTrue(FeedText.contains("application/atom+xml;profile=opds-catalog;kind=navigation", "profile=opds-catalog"))
        XCTAssertTrue(FeedText.contains("ppprofile=opds-catalog", "profile=opds-catalog"))
        XCTAssertFalse(FeedText.contains("profile=opds-catalo", "profile=opds-catalog"))
        XCTAssertFalse(FeedText.contains("", "x"))
    }

    func testHTMLIsStrippedAndReferencesDecoded() {
        XCTAssertEqual(FeedText.html("<p>Tea &amp; maps</p><script>evil()</script><style>p{}</style>"), "Tea & maps")
        XCTAssertEqual(FeedText.html("1 < 2 &lt; 3 &#x41;&#66; &nbsp;&unknown; &amp"), "1 < 2 < 3 AB \u{A0}&unknown; &amp")
        XCTAssertEqual(FeedText.html("a<!-- <b>c</b> -->b<br/>c<DIV class=\"x>y\">d</div>"), "ab c d")
        XCTAssertEqual(FeedText.html("Caf&eacute; 日本<b>語</b> &#128240;"), "Café 日本語 📰")
        XCTAssertEqual(FeedText.html("<![CDATA[x]]>y<!DOCTYPE html>z"), "yz")
        XCTAssertEqual(FeedText.html("&#27;[31mred"), "red", "an escape written as a reference is still removed")
    }

    func testPackedTagKindsAreTheBlockTagsAndScriptAndStyle() {
        // The switch in `packedKind` says what the table made from `blockTags` says, for every name in it and others.
        XCTAssertEqual(FeedText.packedTagKinds.count, 28)
        for (packed, kind) in FeedText.packedTagKinds { XCTAssertEqual(FeedText.packedKind(packed), kind, String(packed, radix: 16)) }
        func pack(_ name: String) -> UInt64 { name.utf8.reduce(0) { $0 << 8 | UInt64($1) } }
        for other in ["a", "b", "span", "img", "h7", "scripts", "em", "strong"] { XCTAssertEqual(FeedText.packedKind(pack(other)), .other, other) }
        XCTAssertEqual(FeedText.html("a<SECTION>b</section>c<Figure>d<h6>e<table>f<blockquote>g"), "a b c d e f g")
    }

    func testHTMLDropsTheSpacesOfBlockTagsAtItsEndsAsSingleLineDoes() {
        // Block tags at either end become spaces; dropping them before `singleLine` gives what it gives.
        let samples = ["<p>Tea &amp; maps</p>", "<div> <p>x</p> </div>", "<p>\u{301}accent</p>", "<p>é</p>", "<br/>",
                       "<p> \u{1}x \u{1B}[1m</p>", "<li>a</li><li>b</li>", "<p>caf\u{E9} </p>", "<p>\tx\t</p>", "   <p>a  b</p>  "]
        for sample in samples {
            let stripped = FeedText.stripTags(sample)
            XCTAssertEqual(FeedText.html(sample), TextSanitizer.singleLine(stripped), sample.debugDescription)
        }
    }

    func testHTMLWithKeptBuffersIsHTML() {
        var stripped: [UInt8] = [], decoded: [UInt8] = []
        let samples = ["<p>" + String(repeating: "Long &amp; winding ", count: 400) + "</p>", "a &lt;b&gt; &quot;c&quot; &apos;d&apos; &amp;amp;",
                       "&AMP; &Lt; &amp &ampx; &#38; &#x26; &#+65; &hellip; &;", "plain", "", "<br/>x&amp;y<script>z</script>",
                       "short &gt;"]
        for sample in samples + samples.reversed() {
            let kept = Array(sample.utf8).withUnsafeBufferPointer { FeedText.html(utf8: $0, scratch: &stripped, &decoded) }
            XCTAssertEqual(kept, FeedText.html(sample), sample.debugDescription)
        }
        XCTAssertEqual(FeedText.html("a &lt;b&gt; &quot;c&quot; &apos;d&apos; &amp;amp;"), "a <b> \"c\" 'd' &amp;")
        XCTAssertEqual(FeedText.html("&AMP; &Lt; &amp &ampx; &#38; &#x26; &#+65; &hellip;"), "&AMP; &Lt; &amp &ampx; & & A …",
                       "only exact names are references; numbers are read as before")
    }

    func testDatesFromBytesAreTheDatesFromText() {
        let samples = ["Mon, 06 Jan 2025 10:00:00 GMT", "Mon, 6 Jan 2025 10:00 +0130", "Tue, 07 Jan 2025 23:59:59 -0700",
                       "Thu, 01 Jan 04 19:48:21 PDT", "Mon, 06 Jan 2025 10:00:00 GMT+1", "Mon, 06 January 2025 10:00:00 GMT",
                       "Mon, 06 Jan 2025 25:00:00 GMT", "  2003-12-31T10:14:55.5Z\n", "\u{A0}2003-12-31\u{A0}", "20031231T101455Z",
                       "Mon, 06 Jan 2025 10:00:00 XYZ", "2013-04-30 09:59:54 -0700", "", " ", "Mon, 06 Jan 2025 10:00:00 +01:00"]
        for sample in samples {
            let fromBytes = Array(sample.utf8).withUnsafeBufferPointer { FlexibleDateParser.parse(utf8: $0) }
            XCTAssertEqual(fromBytes, FlexibleDateParser.parse(sample), sample.debugDescription)
        }
        XCTAssertEqual(FlexibleDateParser.parse("Mon, 6 Jan 2025 10:00 +0130")?.timeIntervalSince1970, 1_736_152_200)
    }

    func testPlainWebURLsResolveAsWithABase() {
        let base = URL(string: "https://example.com/feeds/feed.xml")!
        let samples = ["https://example.com/a/../b?x=1&y=2#f", "http://a", "https://example.com/a b", "https://user@example.com/x",
                       "https://例え.jp/パス", "http://1.2.3.4:8080/x", "https:///x", "http:x", "HTTPS://EXAMPLE.COM/", " http://e.com/ ",
                       "https://example.com/%41%zz", "https://example.com/a|b", "https://example.com/p?q=[1]&r=é", "https://e.com/x@y"]
        for sample in samples {
            let general = (URL(string: sample.trimmingCharacters(in: .whitespacesAndNewlines), relativeTo: base)?.absoluteURL)
                .flatMap { url -> URL? in
                    guard let scheme = url.scheme?.lowercased(), CatalogParser.allowedSchemes.contains(scheme) else { return nil }
                    return scheme != "file" && (url.host ?? "").isEmpty ? nil : url
                }
            XCTAssertEqual(CatalogParser.resolve(sample, against: base), general, sample)
        }
    }
}

import Foundation
import XCTest
@testable import NewsstandCore

/// Links kept as text and parsed when used (`LazyURL`): the text kept is sure to parse, to the URL
/// the general resolution gives; relative links still resolve against their base at once; and
/// equality is `URL`'s, so catalog entries compare as before.
final class LazyURLTests: XCTestCase {
    private let base = URL(string: "https://example.com/feeds/feed.xml")!

    /// What `CatalogParser.resolve` gave before links were kept as text (the general path).
    private func general(_ text: String, against base: URL) -> URL? {
        CatalogParser.resolve(text, against: base)
    }

    /// The eight-bytes-at-a-time test takes a word only when every byte is one of `-./0-9a-z`: each
    /// byte value tried at each position of a word otherwise plain.
    func testPlainPathWordsAreExactlyTheSafeBytes() {
        let safe = Set(Array("-./0123456789abcdefghijklmnopqrstuvwxyz".utf8))
        for position in 0..<8 {
            for value in 0...255 {
                var bytes = Array("abcdefgh".utf8)
                bytes[position] = UInt8(value)
                let word = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
                XCTAssertEqual(CatalogParser.isPlainPathWord(word), safe.contains(UInt8(value)), "byte \(value) at \(position)")
            }
        }
    }

    /// A character a certain URL may not hold, or a bad escape, is found wherever it sits in a long
    /// path (the path is read eight bytes at a time where it can be).
    func testALongPathIsCheckedAtEveryPosition() {
        let path = "https://example.com/issues/2025/the-long-way-round.epub"
        XCTAssertTrue(CatalogParser.isCertainWebURL(path))
        let start = "https://example.com/".utf8.count
        for bad in [" ", "\"", "<", ">", "\\", "^", "`", "{", "|", "}", "%zz", "%g4", "é", "\u{7F}", "\t"] {
            for offset in start...path.utf8.count {
                let index = path.utf8.index(path.utf8.startIndex, offsetBy: offset)
                let text = String(path[..<index]) + bad + String(path[index...])
                XCTAssertFalse(CatalogParser.isCertainWebURL(text), text.debugDescription)
            }
        }
        for good in ["%41", "A", "~", "_", "!", "$", "&", "'", "(", ")", "*", "+", ",", ";", "=", ":", "@", "?"] {
            let text = path + good + "/more-of-the-path"
            XCTAssertTrue(CatalogParser.isCertainWebURL(text), text.debugDescription)
            XCTAssertEqual(URL(string: text, encodingInvalidCharacters: false)?.absoluteString, text)
        }
        XCTAssertFalse(CatalogParser.isCertainWebURL(path + "#one#two-and-more"))
    }

    func testCertainWebURLsParseAsTheyAreToWhatResolveGives() {
        var random = SeededRandom(seed: 11)
        let alphabet = Array("ab1-._~!$&'()*+,;=:@/?#%[]{}|\\^` \"<>AZ09éx\t".unicodeScalars)
        let prefixes = ["http://", "https://", "http://a", "https://e.com", "http://e.com:8080", "http://1.2.3.4", "http://e.com/",
                        "https://x-y.example.org/p?q=1", "HTTP://e.com/", "http://e.com:123456/", "https://e_x.com/"]
        let bases = [base, URL(string: "http://other.example/a/b/")!, URL(string: "file:///tmp/feed.xml")!]
        var accepted = 0
        for _ in 0..<60_000 {
            var text = prefixes.randomElement(using: &random)!
            for _ in 0..<Int.random(in: 0...10, using: &random) { text.unicodeScalars.append(alphabet.randomElement(using: &random)!) }
            guard CatalogParser.isCertainWebURL(text) else { continue }
            accepted += 1
            guard let url = URL(string: text, encodingInvalidCharacters: false) else {
                XCTFail("\(text.debugDescription) is certain but does not parse")
                continue
            }
            XCTAssertEqual(url.absoluteString, text)
            XCTAssertNil(url.baseURL)
            XCTAssertTrue(url.scheme == "http" || url.scheme == "https", text)
            XCTAssertFalse((url.host ?? "").isEmpty, text)
            for base in bases {
                XCTAssertEqual(general(text, against: base), url, "\(text.debugDescription) against \(base)")
                let lazy = LazyURL(text, base: base)
                XCTAssertEqual(lazy?.isDeferred, true, text)
                XCTAssertEqual(lazy?.url, url, text)
                XCTAssertEqual(lazy?.absoluteString, text)
            }
        }
        XCTAssertGreaterThan(accepted, 3_000, "the sample reaches the fast path often")
    }

    /// Relative links resolved as text give Foundation's absolute string, over bases and references of every shape.
    func testRelativeLinksResolvedAsTextAreFoundationsResolution() {
        let bases = ["https://example.com/feeds/feed.xml", "https://example.com", "https://example.com/", "http://e.com:8080/a/b/c?q=1#f",
                     "https://example.com/a/b/", "https://example.com/a?x=1", "https://example.com/a/b/c.xml#top", "http://e.com/%7Euser/f.xml",
                     "https://example.com/a/../b/./c.xml", "https://example.com/a//b/feed", "https://example.com/a/b/../c/",
                     "https://example.com/a/./", "https://example.com/a/..b/.c/x", "https://example.com/a/b/..", "https://example.com/issues/"]
        let references = ["x.epub", "issues/1.epub", "/root/x.epub", "../up.epub", "../../../../x", "./a/./b/../c", ".", "..", "./", "../",
                          "?page=2", "#frag", "?q#f", "a?b=c&d=e#g", "a/b/", "/", "/a/../b", "a/..", "a/.", "%41b.epub", "a%2Fb",
                          "a:b", "./a:b", "x#a#b", "//cdn.example.net/x", "a b", "mailto:x@e.com", "é.epub", "/%zz", "..a", ".a/..b/.c",
                          "a//b", "~user/x", "a;b=c/d", "!$&'()*+,;=@",
                          // Leading dot segments, removed from the merged path with any others (RFC 3986 5.2.4).
                          "../covers/5.jpg", "../../x", "./../x", ".././x", "../a/../b", "../.", "../..", "..?q", ".#f", "../?q#f",
                          "..//x", "./.", "...", ".../x", "..x/y", "../.a", "../..b/c", "./../../a/./b/../c"]
        var resolvedAsText = 0
        for baseText in bases {
            let base = URL(string: baseText)!
            for reference in references {
                guard let text = RelativeWebReference.resolve(reference, against: base.absoluteString) else { continue }
                resolvedAsText += 1
                XCTAssertEqual(text, general(reference, against: base)?.absoluteString, "\(reference) against \(baseText)")
                XCTAssertEqual(LazyURL(reference, base: base)?.url, general(reference, against: base), "\(reference) against \(baseText)")
            }
        }
        XCTAssertGreaterThan(resolvedAsText, 250, "most references take the text path")
    }

    /// A link read from the parser's bytes (`init(utf8:…)`, one String made) is the link read from its text, over
    /// the same bases and references, padded with white space, with ends that are not ASCII, and with no
    /// certain base given.
    func testLinksReadFromBytesAreLinksReadFromText() {
        let bases = ["https://example.com/feeds/feed.xml", "https://example.com", "http://e.com:8080/a/b/c?q=1#f", "https://example.com/a/b/",
                     "https://example.com/a//b/feed", "file:///srv/feeds/feed.xml"]
        let references = ["x.epub", "/root/x.epub", "../up.epub", "../../../../x", "./a/./b/../c", ".", "..", "./", "../", "?page=2", "#frag",
                          "a/..", "a/.", "a//b", "a//..", "//cdn.example.net/x", "a b", "é.epub", "https://e.com/a.epub", "", "   ",
                          " \tx.epub\n", "\u{A0}x.epub", "x.epub\u{2028}", "mailto:x@e.com", "x#a#b", "https://e.com/a#b#c"]
        var deferred = 0
        for baseText in bases {
            let base = URL(string: baseText)!
            let certain = CatalogParser.isCertainWebURL(base.absoluteString) ? base.absoluteString : nil
            for reference in references {
                let fromText = LazyURL(reference, base: base, certainBaseText: certain)
                let fromBytes = Array(reference.utf8).withUnsafeBufferPointer { LazyURL(utf8: $0, base: base, certainBaseText: certain) }
                XCTAssertEqual(fromBytes?.absoluteString, fromText?.absoluteString, "\(reference.debugDescription) against \(baseText)")
                XCTAssertEqual(fromBytes?.isDeferred, fromText?.isDeferred, "\(reference.debugDescription) against \(baseText)")
                XCTAssertEqual(fromBytes, fromText, "\(reference.debugDescription) against \(baseText)")
                if fromBytes?.isDeferred == true { deferred += 1 }
            }
        }
        XCTAssertGreaterThan(deferred, 60, "most take the text path")
        XCTAssertEqual(RelativeWebReference.resolve("a/b/../../../c/./d/..", against: "https://e.com/x/y/z"), "https://e.com/x/c/")
        XCTAssertEqual(RelativeWebReference.resolve("../covers/5.jpg", against: "https://example.com/issues/"), "https://example.com/covers/5.jpg")
    }

    func testWhatIsNotCertainIsResolvedAtOnceAsBefore() {
        let samples = ["issues/1.epub", "/root/x.epub", "../up.epub", "?page=2", "#f", "//cdn.example.net/x.jpg", "HTTPS://EXAMPLE.COM/",
                       " https://e.com/a b ", "https://example.com/a|b", "https://example.com/%41%zz", "https://user@example.com/x",
                       "https://例え.jp/パス", "https:///x", "http:x", "mailto:a@example.com", "javascript:alert(1)",
                       "file:///srv/x.epub", "ftp://example.com/x", "", "   ", "https://e.com:99999999/", "https://e_x.com/y",
                       "https://e.com/p?q=[1]", "https://e.com/a#b#c", "http://e.com/%4"]
        for text in samples {
            let expected = general(text, against: base)
            let lazy = LazyURL(text, base: base)
            XCTAssertEqual(lazy?.url, expected, text.debugDescription)
            XCTAssertEqual(lazy?.absoluteString, expected?.absoluteString, text.debugDescription)
        }
        XCTAssertEqual(LazyURL("issues/1.epub", base: base)?.isDeferred, true, "plain relative links resolve as text, kept unparsed")
        XCTAssertEqual(LazyURL("//cdn.example.net/x.jpg", base: base)?.isDeferred, false, "others resolve with Foundation at once")
        XCTAssertEqual(LazyURL("issues/1.epub", base: base)?.absoluteString, "https://example.com/feeds/issues/1.epub")
        XCTAssertEqual(LazyURL(" https://e.com/x\n", base: base)?.isDeferred, true, "trimmed first")
        XCTAssertNil(LazyURL("javascript:alert(1)", base: base))
    }

    func testEqualityAndHashingAreURLs() {
        let plain = LazyURL("https://example.com/a.epub", base: base)!
        XCTAssertTrue(plain.isDeferred)
        let parsed = LazyURL(URL(string: "https://example.com/a.epub")!)
        XCTAssertEqual(plain, parsed)
        XCTAssertEqual(parsed, plain)
        XCTAssertEqual(plain.hashValue, parsed.hashValue)
        XCTAssertEqual(Set([plain, parsed]).count, 1)
        // URL(string: "a.epub", relativeTo: …) is not equal to the absolute URL it stands for, as a URL.
        let relative = URL(string: "a.epub", relativeTo: URL(string: "https://example.com/")!)!
        XCTAssertNotEqual(relative, URL(string: "https://example.com/a.epub")!)
        XCTAssertNotEqual(LazyURL(relative), plain)
        XCTAssertNotEqual(plain, LazyURL("https://example.com/b.epub", base: base)!)
        XCTAssertEqual(LazyURL("x.epub", base: base), LazyURL(URL(string: "https://example.com/feeds/x.epub")!))
    }

    func testCatalogEntryKeepsItsURLsAsGivenAndAsText() {
        var entry = CatalogEntry(name: "a", title: "A", date: Date(timeIntervalSince1970: 0), coverURL: URL(string: "https://e.com/c.jpg"),
                                 contentURLs: [URL(string: "https://e.com/a.epub")!, URL(string: "file:///srv/a.pdf")!])
        XCTAssertEqual(entry.coverURL, URL(string: "https://e.com/c.jpg"))
        XCTAssertEqual(entry.contentURLs, [URL(string: "https://e.com/a.epub")!, URL(string: "file:///srv/a.pdf")!])
        XCTAssertEqual(entry.coverURLText, "https://e.com/c.jpg")
        XCTAssertEqual(entry.contentURLTexts, ["https://e.com/a.epub", "file:///srv/a.pdf"])
        // As the library stores them: one a line.
        XCTAssertEqual(entry.contentURLsText, "https://e.com/a.epub\nfile:///srv/a.pdf")
        let before = entry
        entry.coverURL = nil
        entry.contentURLs = [URL(string: "https://e.com/b.epub")!]
        XCTAssertNil(entry.coverURLText)
        XCTAssertEqual(entry.contentURLTexts, ["https://e.com/b.epub"])
        XCTAssertEqual(entry.contentURLsText, "https://e.com/b.epub")
        // The copy made before is its own: the first link and the rest both unchanged.
        XCTAssertEqual(before.contentURLTexts, ["https://e.com/a.epub", "file:///srv/a.pdf"])
        XCTAssertNotEqual(before, entry)
        entry.contentURLs = []
        XCTAssertEqual(entry.contentURLTexts, [])
        XCTAssertEqual(entry.contentURLsText, "")
        entry.contentURLs = before.contentURLs
        entry.coverURL = before.coverURL
        XCTAssertEqual(entry, before)

        // An entry read from a feed (links kept as text) equals one made from URLs.
        let feed = try? FeedParser.parse(Data("""
            <rss version="2.0"><channel><title>T</title><item><guid>a</guid><title>A</title>
            <pubDate>Thu, 01 Jan 1970 00:00:00 GMT</pubDate><enclosure url="https://e.com/b.epub"/></item></channel></rss>
            """.utf8), url: base)
        XCTAssertEqual(feed?.entries, [CatalogEntry(name: "a", title: "A", date: Date(timeIntervalSince1970: 0),
                                                    contentURLs: [URL(string: "https://e.com/b.epub")!])])
    }
}

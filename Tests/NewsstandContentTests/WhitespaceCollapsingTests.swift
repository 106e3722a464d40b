import XCTest
@testable import NewsstandContent

/// `WhitespaceCollapsing.collapse` works on UTF-8 bytes; these compare it with the rule as written
/// over characters (only " ", tab, LF, CR, CR LF and form feed collapse; a space that a mark joins
/// is a different character and stays), on text built to catch the edges.
final class WhitespaceCollapsingTests: XCTestCase {
    /// The rule over Swift characters, as the collapsing was first written.
    static func collapsedByCharacters(_ text: String) -> String {
        var result = ""
        var pendingSpace = false
        for character in text {
            if [" ", "\t", "\n", "\r", "\r\n", "\u{0C}"].contains(character) {
                pendingSpace = true
            } else {
                if pendingSpace, !result.isEmpty { result.append(" ") }
                pendingSpace = false
                result.append(character)
            }
        }
        return result
    }

    func testCollapsingMatchesTheCharacterRule() {
        let pieces = [" ", "  ", "\t", "\n", "\r\n", "\r", "\u{0C}", "a", "word", "é", "e\u{301}", " \u{301}", "\u{301}",
                      "\u{600} ", "\u{600}", "\u{200D}", " \u{200D}", "\u{A0}", "\u{3000}", "日本", "👍🏽", "\u{0903}", " \u{0903}", "’", "x"]
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            XCTAssertEqual(WhitespaceCollapsing.collapse(text), Self.collapsedByCharacters(text), "collapsing \(Array(text.unicodeScalars))")
            XCTAssertEqual(WhitespaceCollapsing.hasContent(text), !Self.collapsedByCharacters(text).isEmpty, "content of \(Array(text.unicodeScalars))")
        }
        XCTAssertEqual(WhitespaceCollapsing.collapse("  one \t two\r\n\u{0C}three  "), "one two three")
        XCTAssertEqual(WhitespaceCollapsing.collapse("a \u{301}b"), "a \u{301}b", "a space joined by a combining mark stays")
        XCTAssertEqual(WhitespaceCollapsing.collapse("a\u{A0}b"), "a\u{A0}b", "a no-break space is not collapsed")
    }

    func testCollapsibleCharacters() {
        for character: Character in [" ", "\t", "\n", "\r", "\r\n", "\u{0C}"] {
            XCTAssertTrue(WhitespaceCollapsing.isCollapsible(character), "\(Array(String(character).unicodeScalars))")
        }
        for character: Character in ["a", "\u{A0}", " \u{301}", "\u{0B}", "\u{2028}"] {
            XCTAssertFalse(WhitespaceCollapsing.isCollapsible(character), "\(Array(String(character).unicodeScalars))")
        }
    }
}

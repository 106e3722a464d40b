import XCTest
@testable import NewsstandContent

final class TextSanitizerTests: XCTestCase {
    func testRemovesEscapeSequencesOfEveryKind() {
        XCTAssertEqual(TextSanitizer.sanitize("a\u{1B}[31;1mred\u{1B}[0m b"), "ared b")                 // CSI
        XCTAssertEqual(TextSanitizer.sanitize("x\u{1B}]0;evil title\u{07}y"), "xy")                    // OSC ended by BEL
        XCTAssertEqual(TextSanitizer.sanitize("x\u{1B}]8;;http://e\u{1B}\\link\u{1B}]8;;\u{1B}\\y"), "xlinky") // OSC 8 ended by ST
        XCTAssertEqual(TextSanitizer.sanitize("x\u{1B}P1$qm\u{1B}\\y"), "xy")                          // DCS
        XCTAssertEqual(TextSanitizer.sanitize("x\u{1B}_apc\u{1B}\\y\u{1B}^pm\u{1B}\\z"), "xyz")        // APC, PM
        XCTAssertEqual(TextSanitizer.sanitize("x\u{9B}2Jy"), "xy")                                     // C1 CSI
        XCTAssertEqual(TextSanitizer.sanitize("x\u{1B}cy"), "xy")                                      // RIS
    }

    func testRemovesControlsAndBidiOverridesButKeepsText() {
        XCTAssertEqual(TextSanitizer.sanitize("a\u{0}b\u{7}c\u{8}d\u{7F}e\u{85}f"), "abcde\nf", "NEL is a line break")
        XCTAssertEqual(TextSanitizer.sanitize("abc\u{202E}cba\u{2066}x\u{2069}"), "abccbax")
        XCTAssertEqual(TextSanitizer.sanitize("Café — 金継ぎ 👍🏽"), "Café — 金継ぎ 👍🏽")
        XCTAssertEqual(TextSanitizer.sanitize("one\r\ntwo\rthree\tfour"), "one\ntwo\nthree four")
    }

    func testSingleLineFieldsLoseLineBreaksAndExtraSpaces() {
        XCTAssertEqual(TextSanitizer.singleLine("  The\nSpring\u{2028} Issue\u{1B}[2J  "), "The Spring Issue")
    }

    /// `singleLine` checks the bytes first: clean text comes back as it is, text with only extra
    /// spaces is collapsed without the character filter, anything else is filtered as before.
    func testSingleLineFastPathsGiveTheSameText() {
        XCTAssertEqual(TextSanitizer.singleLine("Kettle & Compass — 日本語 📰"), "Kettle & Compass — 日本語 📰")
        XCTAssertEqual(TextSanitizer.singleLine("  Spring   issue "), "Spring issue")
        XCTAssertEqual(TextSanitizer.singleLine(" "), "")
        XCTAssertEqual(TextSanitizer.singleLine(""), "")
        XCTAssertEqual(TextSanitizer.singleLine("a \u{301}b"), "a \u{301}b", "a space with a combining mark is a character")
        XCTAssertEqual(TextSanitizer.singleLine("  \u{301}x"), " \u{301}x", "as splitting by characters gives it")
        XCTAssertEqual(TextSanitizer.singleLine("a\u{85}b\u{2028}c\u{202E}d\u{2067}e\u{9B}31mf"), "a b cdef")
        XCTAssertEqual(TextSanitizer.singleLine("no\u{A0}break\u{2029}"), "no\u{A0}break")
        XCTAssertEqual(TextSanitizer.singleLine("tab\there\u{7F}"), "tab here")
    }

    /// `singleLine(utf8:)` reads clean ASCII eight bytes at a time: whatever sits at any position of a
    /// long text, and wherever two spaces meet across the eight-byte words, it gives what the full
    /// filter gives (controls out, line breaks as spaces, spaces collapsed and trimmed).
    func testSingleLineOfLongTextGivesWhatTheFullFilterGives() {
        func expected(_ text: String) -> String {
            TextSanitizer.sanitize(text, keepNewlines: false).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        let plain = "Summary of issue 42: tea, maps and the long way round"
        let specials = ["  ", " ", "\t", "\n", "\u{7F}", "\u{1B}[2J", "\u{85}", "\u{2028}", "\u{202E}", "\u{2067}", "é", "日本", "\u{A0}", "\u{1F}"]
        var cases = [plain, " " + plain, plain + " ", "abcdefg  hijklmno", "abcdefgh  ijklmnop", "abcdefg" + " " + "        x"]
        for special in specials {
            for offset in 0...plain.utf8.count {
                let index = plain.utf8.index(plain.utf8.startIndex, offsetBy: offset)
                cases.append(String(plain[..<index]) + special + String(plain[index...]))
            }
        }
        for text in cases {
            let result = Array(text.utf8).withUnsafeBufferPointer(TextSanitizer.singleLine(utf8:))
            XCTAssertEqual(result, expected(text), text.debugDescription)
            XCTAssertEqual(TextSanitizer.singleLine(text), result, text.debugDescription)
        }
    }

    func testRemovingOnlyEscapeSequencesKeepsTabsAndLineBreaks() {
        XCTAssertEqual(TextSanitizer.removingEscapeSequences("<pre>a\tb\u{1B}[1m\nc</pre>&#27;]0;t\u{07}<p>\u{9B}2Jx</p>"), "<pre>a\tb\nc</pre><p>x</p>")
    }

    func testAnEscapeAtTheVeryEndIsDropped() {
        XCTAssertEqual(TextSanitizer.sanitize("abc\u{1B}"), "abc")
        XCTAssertEqual(TextSanitizer.sanitize("abc\u{1B}["), "abc")
        XCTAssertEqual(TextSanitizer.sanitize("abc\u{1B}]unterminated"), "abc")
    }

    func testAStringSequenceThatNeverEndsLosesOnlyItsIntroducerInADocument() {
        // A stray C1 control (mis-decoded text in a web page) must not take the rest of the page with it.
        XCTAssertEqual(TextSanitizer.removingEscapeSequences("<p id=\"\u{EF}\u{81}\u{98}-2\">a</p><p>rest</p>\u{98}more"), "<p id=\"\u{EF}\u{81}-2\">a</p><p>rest</p>more")
        XCTAssertEqual(TextSanitizer.removingEscapeSequences("x\u{1B}]0;t\u{07}y\u{9D}z"), "xyz")
        // Ended ones still go whole.
        XCTAssertEqual(TextSanitizer.removingEscapeSequences("a\u{98}hidden\u{9C}b"), "ab")
    }
}

final class DisplayWidthTests: XCTestCase {
    func testWidthsPerGraphemeCluster() {
        XCTAssertEqual(DisplayWidth.of("abc"), 3)
        XCTAssertEqual(DisplayWidth.of("金継ぎ"), 6)
        XCTAssertEqual(DisplayWidth.of("ｱ"), 1, "halfwidth katakana is narrow")
        XCTAssertEqual(DisplayWidth.of("Ａ"), 2, "fullwidth Latin is wide")
        XCTAssertEqual(DisplayWidth.of("e\u{301}"), 1, "a combining accent takes no column of its own")
        XCTAssertEqual(DisplayWidth.of("👍🏽"), 2)
        XCTAssertEqual(DisplayWidth.of("👨‍👩‍👧"), 2, "a ZWJ family is one wide cluster")
        XCTAssertEqual(DisplayWidth.of("❤️"), 2, "emoji presentation selector makes it wide")
        XCTAssertEqual(DisplayWidth.of("\u{200B}"), 0)
    }

    /// The scalars given one column without a property look-up get what their properties give, alone and with marks.
    func testTheWidthsSkippingThePropertiesAgreeWithThem() {
        let skipped = (UInt32(0)...0x3000).filter(DisplayWidth.isNarrowWithoutLookUp)
        XCTAssertTrue(skipped.contains(0x41) && skipped.contains(0x2502) && skipped.contains(0xE9), "letters and box drawing take the short way")
        XCTAssertFalse(skipped.contains(0xAD) || skipped.contains(0x25FD) || skipped.contains(0x301), "soft hyphen, emoji and marks do not")
        for value in skipped {
            let scalar = Unicode.Scalar(value)!
            let character = Character(scalar)
            XCTAssertEqual(DisplayWidth.of(character), DisplayWidth.measured(character.unicodeScalars, first: scalar), "U+\(String(value, radix: 16))")
            XCTAssertEqual(DisplayWidth.measured(character.unicodeScalars, first: scalar), 1, "U+\(String(value, radix: 16))")
            let marked = Character(String(scalar) + "\u{FE0F}")
            XCTAssertEqual(DisplayWidth.of(marked), DisplayWidth.measured(marked.unicodeScalars, first: scalar), "U+\(String(value, radix: 16)) with VS16")
        }
        XCTAssertEqual(DisplayWidth.of("plain ASCII, counted by bytes"), 29)
        XCTAssertEqual(DisplayWidth.of("tab\there"), 7, "a control character takes no column")
        XCTAssertEqual(DisplayWidth.of("#\u{FE0F}\u{20E3}"), 2, "a keycap after ASCII is an emoji")
    }

    /// A `String` (its own overload, for callers in other modules) measures as its clusters do, and as a `Substring`.
    func testAStringMeasuresAsItsClustersAndAsASubstring() {
        for text in ["abc", "金継ぎ", "e\u{301}x", "👍🏽 ok", "tab\there", "soft\u{AD}hyphen", ""] {
            XCTAssertEqual(DisplayWidth.of(text), text.reduce(0) { $0 + DisplayWidth.of($1) }, text)
            XCTAssertEqual(DisplayWidth.of(text), DisplayWidth.of(text[...]), text)
        }
    }

    func testPrefixNeverSplitsACluster() {
        XCTAssertEqual(DisplayWidth.prefix("金継ぎ", fitting: 3), "金")
        XCTAssertEqual(DisplayWidth.prefix("ae\u{301}b", fitting: 2), "ae\u{301}")
        XCTAssertEqual(DisplayWidth.prefix("abc", fitting: 0), "")
    }
}

final class TextWrapperTests: XCTestCase {
    func testWrapsAtSpacesWithinTheWidth() {
        let lines = TextWrapper.wrap("The quick brown fox jumps over the lazy dog", width: 10)
        XCTAssertEqual(lines, ["The quick", "brown fox", "jumps over", "the lazy", "dog"])
        XCTAssertTrue(lines.allSatisfy { DisplayWidth.of($0) <= 10 })
    }

    func testLongWordsAndWideTextAreSplitBetweenClusters() {
        XCTAssertEqual(TextWrapper.wrap("abcdefghij", width: 4), ["abcd", "efgh", "ij"])
        XCTAssertEqual(TextWrapper.wrap("金継ぎの技術", width: 5), ["金継", "ぎの", "技術"])
        XCTAssertEqual(TextWrapper.wrap("金", width: 1), ["金"], "a wide character on a one-column line still appears")
    }

    func testCollapsesWhiteSpaceAndHandlesEmptyText() {
        XCTAssertEqual(TextWrapper.wrap("  a \n\t b  ", width: 10), ["a b"])
        XCTAssertEqual(TextWrapper.wrap("", width: 10), [""])
        XCTAssertEqual(TextWrapper.wrap("text", width: 0), [])
    }
}

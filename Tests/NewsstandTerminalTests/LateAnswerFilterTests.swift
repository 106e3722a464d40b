import XCTest
@testable import NewsstandTerminal

/// Answers to the start-up questions that arrive late are not read as keys; keys are.
final class LateAnswerFilterTests: XCTestCase {
    private func inputs(_ text: String) -> [LateAnswerFilter.Input] { text.unicodeScalars.map { .character($0.value) } }

    func testLateAnswersAreDropped() {
        var filter = LateAnswerFilter()
        let late = "\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\" + "\u{1B}P>|XTerm(379)\u{1B}\\" + "\u{1B}_Gi=31;OK\u{1B}\\" + "\u{1B}[6;17;8t" + "\u{1B}[?62;22c"
        XCTAssertEqual(filter.keys(in: inputs("j" + late + "k")), inputs("jk"))
        XCTAssertEqual(filter.keys(in: inputs("\u{1B}]11;rgb:0/0/0\u{7}q")), inputs("q"), "ended by BEL")
    }

    func testAnAnswerSplitAcrossReadsIsDroppedWhole() {
        var filter = LateAnswerFilter()
        XCTAssertEqual(filter.keys(in: inputs("\u{1B}]11;rgb:ff")), [])
        XCTAssertEqual(filter.keys(in: inputs("ff/0/0\u{1B}")), [])
        XCTAssertEqual(filter.keys(in: inputs("\\c")), inputs("c"), "the key after it is kept")
        XCTAssertEqual(filter.keys(in: inputs("\u{1B}[?62;")), [])
        XCTAssertEqual(filter.keys(in: inputs("4cg")), inputs("g"))
    }

    func testAltWithAKeyIsNoAnswer() {
        var filter = LateAnswerFilter()
        for text in ["\u{1B}Pj", "\u{1B}]k", "\u{1B}_x", "\u{1B}[x", "\u{1B}]1"] {
            XCTAssertEqual(filter.keys(in: inputs(text)), inputs(text), text.debugDescription)
        }
        // An answer that never ends is dropped for at most `longestAnswer` characters, then keys count again.
        XCTAssertEqual(filter.keys(in: inputs("\u{1B}]11;" + String(repeating: "x", count: LateAnswerFilter.longestAnswer + 10))).count, 10)
        XCTAssertEqual(filter.keys(in: inputs("q")), inputs("q"))
    }

    func testKeysStayKeys() {
        var filter = LateAnswerFilter()
        XCTAssertEqual(filter.keys(in: inputs("\u{1B}")), inputs("\u{1B}"), "Escape alone")
        XCTAssertEqual(filter.keys(in: inputs("\u{1B}q")), inputs("\u{1B}q"), "Escape then a key")
        XCTAssertEqual(filter.keys(in: [.keyCode(259), .character(0x6A)]), [.keyCode(259), .character(0x6A)], "key codes pass")
        XCTAssertEqual(filter.keys(in: inputs("]_P[")), inputs("]_P["), "the characters themselves are keys")
    }
}

import Foundation
import XCTest
@testable import NewsstandCore

/// The bounded reader of KOReader's sidecar tables: literals only, every string form, and limits.
final class LuaTableLiteralTests: XCTestCase {
    func testKOReadersShapesAreRead() throws {
        let value = try LuaTableLiteral.parse(#"""
            -- ./book.sdr/metadata.epub.lua
            return {
                ["annotations"] = {
                    [1] = { ["text"] = "a \"quoted\"\tword\\", ["note"] = 'it\'s\n', ["pos0"] = "/body/DocFragment[2]/body/p[3]/text().5", },
                    [2] = { text = [==[long ]] string]==], page = 12, done = true, gone = nil; },
                },
                ["percent_finished"] = 0.25, --[[ a long
                comment ]] ["list"] = { "x", "y", [5] = "z" },
                ["escapes"] = "\65\066\x43\u{44}\z
                     E",
            }
            """#)
        let table = try XCTUnwrap(value.table)
        let annotations = try XCTUnwrap(table["annotations"]?.table?.array)
        XCTAssertEqual(annotations.count, 2)
        XCTAssertEqual(annotations[0].table?["text"], .string("a \"quoted\"\tword\\"))
        XCTAssertEqual(annotations[0].table?["pos0"]?.string, "/body/DocFragment[2]/body/p[3]/text().5")
        XCTAssertEqual(annotations[1].table?["text"], .string("long ]] string"))
        XCTAssertEqual(annotations[1].table?["page"], .number(12))
        XCTAssertEqual(annotations[1].table?["done"], .boolean(true))
        XCTAssertEqual(annotations[1].table?["gone"], .nil)
        XCTAssertEqual(table["percent_finished"], .number(0.25))
        XCTAssertEqual(table["list"]?.table?.array, [.string("x"), .string("y"), .string("z")])
        XCTAssertEqual(table["escapes"]?.string, "ABCDE")
    }

    func testAdjacentQuotesAreTwoStringsNotOne() {
        // 'it''s' is not Lua: two strings side by side with no comma between them.
        XCTAssertThrowsError(try LuaTableLiteral.parse("return { 'it''s' }"))
    }

    func testCodeAndBrokenTablesAreRefusedWithTheirLine() {
        for (text, words) in [("return { x = os.execute('rm -rf /') }", "is not a value"), ("return {\n\n  ['a'] = }", "line 3"),
                              ("return { 'unterminated }", "never ends"), ("return {} trailing", "text after the table"),
                              ("return { [true] = 1 }", "neither a string nor a whole number"), ("return { a = 1", "ends inside a table")] {
            XCTAssertThrowsError(try LuaTableLiteral.parse(text), text) { error in
                XCTAssertTrue("\(error)".contains(words), "\(text): \(error)")
            }
        }
    }

    func testLimitsHold() {
        let deep = "return " + String(repeating: "{", count: 65) + String(repeating: "}", count: 65)
        XCTAssertThrowsError(try LuaTableLiteral.parse(deep)) { XCTAssertTrue("\($0)".contains("nested more than 64"), "\($0)") }
        XCTAssertNoThrow(try LuaTableLiteral.parse("return " + String(repeating: "{", count: 60) + String(repeating: "}", count: 60)))
        let huge = String(repeating: " ", count: (16 << 20) + 1)
        XCTAssertThrowsError(try LuaTableLiteral.parse(huge)) { XCTAssertTrue("\($0)".contains("16 MB"), "\($0)") }
    }

    /// A sidecar's annotations as exchanged: text, note, chapter, time and pos0; entries without text are left out.
    func testASidecarBecomesAnnotations() throws {
        let text = """
            return { ["annotations"] = {
                { ["chapter"] = "Two", ["datetime"] = "2026-03-02 17:45:10", ["pos0"] = "/body/DocFragment[2]/body/p[1]/text().0",
                  ["pos1"] = "/body/DocFragment[2]/body/p[1]/text().9", ["text"] = "Some   words\\nhere", ["note"] = "mine" },
                { ["chapter"] = "Two", ["datetime"] = "2026-03-02 17:46:00", ["page"] = "/body/DocFragment[2]/body/p[4]/text().0" },
            } }
            """
        let annotations = try AnnotationExchange.read(Data(text.utf8))
        XCTAssertEqual(annotations.count, 1)
        XCTAssertEqual(annotations[0].text, "Some words here", "white space collapsed, line breaks too")
        XCTAssertEqual(annotations[0].note, "mine")
        XCTAssertEqual(annotations[0].chapter, "Two")
        XCTAssertEqual(annotations[0].xpointer, "/body/DocFragment[2]/body/p[1]/text().0")
        XCTAssertNotNil(annotations[0].created)
    }
}

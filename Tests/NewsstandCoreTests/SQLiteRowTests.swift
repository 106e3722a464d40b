import Foundation
import XCTest
@testable import NewsstandCore

/// Rows read in place (`SQLiteDatabase.forEachRow` and `rows`) give what the kept values (`query`) give.
final class SQLiteRowTests: XCTestCase {
    private func database() throws -> SQLiteDatabase {
        let paths = try TestSupport.paths(for: self)
        let database = try SQLiteDatabase(path: paths.databaseFile.path)
        addTeardownBlock { database.close() }
        try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, number, text)")
        let rows: [[SQLiteValue]] = [
            [.integer(1), .integer(42), .text("Café Métropole — №1")],
            [.integer(2), .real(2.5), .null],
            [.integer(3), .null, .text("")],
            [.integer(4), .text("7"), .text("line\nbreak")],
        ]
        for row in rows { try database.query("INSERT INTO t (id, number, text) VALUES (?, ?, ?)", row) }
        try database.execute("INSERT INTO t (id, number, text) VALUES (5, NULL, CAST('as a blob' AS BLOB))")
        return database
    }

    func testEachColumnReadsAsTheKeptValueDoes() throws {
        let database = try database()
        let kept = try database.query("SELECT id, number, text FROM t ORDER BY id")
        var visited = 0
        try database.forEachRow("SELECT id, number, text FROM t ORDER BY id") { row in
            XCTAssertEqual(row.count, 3)
            let values = kept[visited]
            for column in 0..<row.count {
                XCTAssertEqual(row.value(column), values[column], "row \(visited) column \(column)")
                XCTAssertEqual(row.int64(column), values[column].int64, "row \(visited) column \(column)")
                XCTAssertEqual(row.double(column), values[column].double, "row \(visited) column \(column)")
                XCTAssertEqual(row.string(column), values[column].string, "row \(visited) column \(column)")
            }
            visited += 1
        }
        XCTAssertEqual(visited, 5)
        XCTAssertEqual(kept[4][2], .text("as a blob"), "a blob reads as text")
        XCTAssertEqual(kept[0][2], .text("Café Métropole — №1"))
        XCTAssertEqual(kept[1][1].int64, 2, "a real read as a whole number")
        XCTAssertEqual(kept[0][1].double, 42)
        XCTAssertNil(kept[3][1].int64, "text is not a number")
    }

    func testRowsMapsEachRowAndBindsValues() throws {
        let database = try database()
        let texts = try database.rows("SELECT text FROM t WHERE id >= ? ORDER BY id", [.integer(3)]) { $0.string(0) }
        XCTAssertEqual(texts, ["", "line\nbreak", "as a blob"])
        XCTAssertEqual(try database.rows("SELECT id FROM t WHERE id > 99") { $0.int64(0) }, [])
    }

    func testAThrowingVisitorStopsAndTheStatementRunsAgain() throws {
        let database = try database()
        struct Stop: Error {}
        var seen = 0
        XCTAssertThrowsError(try database.forEachRow("SELECT id FROM t ORDER BY id") { _ in
            seen += 1
            if seen == 2 { throw Stop() }
        })
        XCTAssertEqual(seen, 2)
        // Reset after the throw: the same statement reads from the start, and no read is left open for writers.
        XCTAssertEqual(try database.rows("SELECT id FROM t ORDER BY id") { $0.int64(0) }, [1, 2, 3, 4, 5])
        try database.query("DELETE FROM t WHERE id = 4")
        XCTAssertEqual(try database.rows("SELECT id FROM t ORDER BY id") { $0.int64(0) }, [1, 2, 3, 5])
    }
}

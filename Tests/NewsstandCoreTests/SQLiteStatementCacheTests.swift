import Foundation
import XCTest
@testable import NewsstandCore

/// SQLiteDatabase keeps its compiled statements: reused, bounded, and never left holding a read open.
final class SQLiteStatementCacheTests: XCTestCase {
    private func database() throws -> (SQLiteDatabase, String) {
        let paths = try TestSupport.paths(for: self)
        let path = paths.databaseFile.path
        let database = try SQLiteDatabase(path: path)
        addTeardownBlock { database.close() }
        try database.execute("PRAGMA journal_mode = WAL; CREATE TABLE t (id INTEGER PRIMARY KEY, value TEXT NOT NULL)")
        return (database, path)
    }

    func testAStatementIsCompiledOnceAndTakesNewValuesEachTime() throws {
        let (database, _) = try database()
        for number in 1...5 {
            try database.query("INSERT INTO t (id, value) VALUES (?, ?)", [.integer(Int64(number)), .text("v\(number)")])
        }
        XCTAssertEqual(database.cachedStatementCount, 1, "five inserts, one compiled statement")
        XCTAssertEqual(try database.query("SELECT value FROM t WHERE id = ?", [.integer(2)]), [[.text("v2")]])
        XCTAssertEqual(try database.query("SELECT value FROM t WHERE id = ?", [.integer(4)]), [[.text("v4")]])
        XCTAssertEqual(database.cachedStatementCount, 2)
        // Bindings do not linger: a statement used with fewer values than before binds NULL to the rest.
        try database.query("INSERT INTO t (id, value) VALUES (?, ?)", [.integer(9), .text("x")])
        XCTAssertThrowsError(try database.query("INSERT INTO t (id, value) VALUES (?, ?)", [.integer(10)]), "NOT NULL, not the last value")
        XCTAssertEqual(try database.query("SELECT count(*) FROM t").first?.first?.int64, 6)
    }

    func testAFailedStatementCanRunAgain() throws {
        let (database, _) = try database()
        try database.query("INSERT INTO t (id, value) VALUES (?, ?)", [.integer(1), .text("a")])
        XCTAssertThrowsError(try database.query("INSERT INTO t (id, value) VALUES (?, ?)", [.integer(1), .text("again")]), "duplicate id")
        try database.query("INSERT INTO t (id, value) VALUES (?, ?)", [.integer(2), .text("b")])
        XCTAssertEqual(try database.query("SELECT value FROM t ORDER BY id").compactMap { $0.first?.string }, ["a", "b"])
    }

    func testTheCacheIsBounded() throws {
        let (database, _) = try database()
        for number in 0..<(SQLiteDatabase.statementCacheLimit * 2 + 3) {
            XCTAssertEqual(try database.query("SELECT \(number)").first?.first?.int64, Int64(number))
            XCTAssertLessThanOrEqual(database.cachedStatementCount, SQLiteDatabase.statementCacheLimit)
        }
    }

    /// A kept statement that was not reset would hold its read snapshot: another connection could then not
    /// checkpoint the whole WAL, and would not see the reader's view end.
    func testAFinishedQueryHoldsNoReadOpen() throws {
        let (database, path) = try database()
        for number in 1...50 {
            try database.query("INSERT INTO t (id, value) VALUES (?, ?)", [.integer(Int64(number)), .text(String(repeating: "x", count: 500))])
        }
        // A query that stops after its first row of many is the one a careless cache would leave open.
        XCTAssertEqual(try database.query("SELECT id FROM t ORDER BY id LIMIT 1"), [[.integer(1)]])
        XCTAssertEqual(try database.query("SELECT count(*) FROM t").first?.first?.int64, 50)
        let other = try SQLiteDatabase(path: path)
        defer { other.close() }
        try other.query("INSERT INTO t (id, value) VALUES (?, ?)", [.integer(51), .text("from the other connection")])
        // busy = 0: nothing held the WAL; log = checkpointed = 0 after TRUNCATE.
        XCTAssertEqual(try other.query("PRAGMA wal_checkpoint(TRUNCATE)").first, [.integer(0), .integer(0), .integer(0)])
        XCTAssertEqual(try database.query("SELECT count(*) FROM t").first?.first?.int64, 51, "the first connection sees the other's write")
    }

    func testClosingFinalizesTheKeptStatements() throws {
        let (database, path) = try database()
        try database.query("INSERT INTO t (id, value) VALUES (?, ?)", [.integer(1), .text("a")])
        _ = try database.query("SELECT value FROM t")
        database.close()
        XCTAssertEqual(database.cachedStatementCount, 0)
        // A connection closed with statements left would stay open as a zombie and keep the WAL; a fresh
        // connection that is the only one left deletes the WAL when it closes.
        let other = try SQLiteDatabase(path: path)
        XCTAssertEqual(try other.query("SELECT value FROM t"), [[.text("a")]])
        other.close()
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"), "the last connection closed removed the WAL")
    }
}

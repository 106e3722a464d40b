import CSQLite
import Foundation

/// A value bound to, or read from, an SQLite statement.
public enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    public var int64: Int64? { if case .integer(let value) = self { value } else if case .real(let value) = self { Int64(value) } else { nil } }
    public var double: Double? { if case .real(let value) = self { value } else if case .integer(let value) = self { Double(value) } else { nil } }
    public var string: String? { if case .text(let value) = self { value } else { nil } }
}

/// The current row of a statement being stepped, read column by column where it lies (`SQLiteDatabase.forEachRow`).
/// Valid only inside the call it is handed to. Numbers read as either kind, as `SQLiteValue`'s accessors do.
struct SQLiteRow {
    fileprivate let statement: OpaquePointer
    /// How many columns the statement gives.
    let count: Int

    func int64(_ column: Int) -> Int64? {
        switch sqlite3_column_type(statement, Int32(column)) {
        case SQLITE_INTEGER, SQLITE_FLOAT: sqlite3_column_int64(statement, Int32(column))
        default: nil
        }
    }

    func double(_ column: Int) -> Double? {
        switch sqlite3_column_type(statement, Int32(column)) {
        case SQLITE_INTEGER, SQLITE_FLOAT: sqlite3_column_double(statement, Int32(column))
        default: nil
        }
    }

    /// The column's text (a blob read as text); nil for NULL and for numbers (as `SQLiteValue.string`).
    func string(_ column: Int) -> String? {
        switch sqlite3_column_type(statement, Int32(column)) {
        case SQLITE_TEXT, SQLITE_BLOB: text(column)
        default: nil
        }
    }

    /// The column as SQLite hands it, kept as a value.
    func value(_ column: Int) -> SQLiteValue {
        switch sqlite3_column_type(statement, Int32(column)) {
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, Int32(column)))
        case SQLITE_FLOAT: .real(sqlite3_column_double(statement, Int32(column)))
        case SQLITE_NULL: .null
        default: .text(text(column))
        }
    }

    /// Text (or a blob read as text) up to its length, not its first NUL.
    private func text(_ column: Int) -> String {
        guard let bytes = sqlite3_column_text(statement, Int32(column)) else { return "" }
        let length = Int(sqlite3_column_bytes(statement, Int32(column)))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
    }
}

/// A failed SQLite call, with SQLite's own message.
public struct SQLiteError: Error, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public var description: String { "database error \(code): \(message)" }
}

/// One SQLite connection, used from one thread at a time (callers serialise through `LibraryStore`).
///
/// Values are always bound, never formatted into SQL. Statements are compiled once and kept (by their SQL
/// text, at most `statementCacheLimit`), and reset after every use, so no finished query holds a read open.
final class SQLiteDatabase {
    private var handle: OpaquePointer?
    /// Compiled statements by their SQL, reset and ready to bind.
    private var statements: [String: OpaquePointer] = [:]
    /// How many compiled statements are kept; past it the cache starts again (SQL built from changing parts, say).
    static let statementCacheLimit = 128

    init(path: String) throws {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
            sqlite3_close(handle)
            handle = nil
            throw SQLiteError(code: status, message: message)
        }
        sqlite3_busy_timeout(handle, 5_000)
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit { close() }

    /// Keeps the write-ahead log's file when the last connection closes, instead of deleting it: emptied by the final
    /// checkpoint when a `journal_size_limit` is set (SQLite truncates it to nothing then), so the next opening neither
    /// reads a log back nor creates a file (creating it, and deleting it at the end, cost a sixth of a millisecond of
    /// every start here).
    func keepWriteAheadLogFile() {
        var keep: Int32 = 1
        sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &keep)
    }

    func close() {
        forgetStatements()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// How many compiled statements are kept now (tests).
    var cachedStatementCount: Int { statements.count }

    private func forgetStatements() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements.removeAll()
    }

    /// The compiled statement for `sql`, from the cache or compiled now and kept.
    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        // PERSISTENT: kept for many uses, so SQLite does not take it from its small lookaside memory.
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK, let statement else {
            let error = SQLiteError(code: sqlite3_errcode(handle), message: lastMessage)
            sqlite3_finalize(statement)
            throw error
        }
        if statements.count >= Self.statementCacheLimit { forgetStatements() }
        statements[sql] = statement
        return statement
    }

    /// Runs one or more statements that take no values.
    func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if status != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(errorMessage)
            throw SQLiteError(code: status, message: message)
        }
    }

    /// Runs a statement with bound values and returns every row.
    @discardableResult
    func query(_ sql: String, _ values: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        try rows(sql, values) { row in (0..<row.count).map(row.value) }
    }

    /// Runs a statement with bound values and returns what `transform` makes of each row, read in place.
    func rows<T>(_ sql: String, _ values: [SQLiteValue] = [], as transform: (SQLiteRow) throws -> T) throws -> [T] {
        var results: [T] = []
        try forEachRow(sql, values) { results.append(try transform($0)) }
        return results
    }

    /// Runs a statement with bound values and hands `body` each row, read in place: no row is copied into values
    /// that are thrown away once mapped (the library's overview reads a thousand publications this way at start-up).
    func forEachRow(_ sql: String, _ values: [SQLiteValue] = [], _ body: (SQLiteRow) throws -> Void) throws {
        let statement = try prepared(sql)
        defer {
            // Ends the statement's read (or write) at once and lets go of the bound text.
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, index)
            case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
            case .real(let number): status = sqlite3_bind_double(statement, index, number)
            case .text(let text): status = sqlite3_bind_text(statement, index, text, -1, newsstand_sqlite_transient())
            }
            guard status == SQLITE_OK else { throw SQLiteError(code: status, message: lastMessage) }
        }
        let row = SQLiteRow(statement: statement, count: Int(sqlite3_column_count(statement)))
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw SQLiteError(code: status, message: lastMessage) }
            try body(row)
        }
    }

    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The rows the last INSERT, UPDATE or DELETE changed itself (not through triggers); 0 for an upsert that did nothing.
    var changedRowCount: Int { Int(sqlite3_changes(handle)) }

    var userVersion: Int {
        get { (try? query("PRAGMA user_version").first?.first?.int64).flatMap { $0 }.map(Int.init) ?? 0 }
    }

    /// Runs `body` in an IMMEDIATE transaction (so writers queue on the busy timeout instead of failing midway).
    /// `waitingForDisk: false` commits without waiting for the disk (`synchronous = NORMAL` for this transaction:
    /// the write-ahead log keeps the database whole, and the next waited-for commit carries it to the disk): for writes
    /// that only record when something was checked, which a power cut may forget at no cost (a disk sync is about 8 ms
    /// here, and much more while the disk is busy).
    func transaction<T>(waitingForDisk: Bool = true, _ body: () throws -> T) throws -> T {
        if !waitingForDisk {
            try execute("PRAGMA synchronous = NORMAL")
            defer { try? execute("PRAGMA synchronous = FULL") }
            return try transaction(body)
        }
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    private var lastMessage: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "database closed" }
}

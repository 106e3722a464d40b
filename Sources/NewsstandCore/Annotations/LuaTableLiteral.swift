import Foundation

/// A value of a Lua table literal, as KOReader writes its sidecar files (`book.sdr/metadata.epub.lua`:
/// `return { ["key"] = value, … }`): strings, numbers, booleans, nil and tables (array part and keyed part).
public indirect enum LuaValue: Equatable, Sendable {
    case string(String)
    case number(Double)
    case boolean(Bool)
    case `nil`
    case table(LuaTable)

    public var string: String? { if case .string(let text) = self { text } else { nil } }
    public var number: Double? { if case .number(let value) = self { value } else { nil } }
    public var table: LuaTable? { if case .table(let table) = self { table } else { nil } }
}

/// A Lua table: its entries in the order written, keyed by string or by number.
public struct LuaTable: Equatable, Sendable {
    public enum Key: Hashable, Sendable { case name(String), index(Int) }
    public var entries: [(key: Key, value: LuaValue)] = []

    public static func == (lhs: LuaTable, rhs: LuaTable) -> Bool {
        lhs.entries.count == rhs.entries.count && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public subscript(_ name: String) -> LuaValue? { entries.last { $0.key == .name(name) }?.value }
    /// The array part: values keyed 1, 2, 3… (written `[1] = …` or positionally), in index order.
    public var array: [LuaValue] {
        entries.compactMap { if case .index(let index) = $0.key { (index, $0.value) } else { nil } }.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

/// Reads a Lua table literal (optionally after `return`), bounded: at most 16 MB of text, 64 levels of nesting and
/// 1,000,000 values. Code other than a literal (calls, operators, variables) is refused, never run.
public enum LuaTableLiteral {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    static let maxBytes = 16 << 20
    static let maxDepth = 64
    static let maxValues = 1_000_000

    public static func parse(_ text: String) throws -> LuaValue {
        guard text.utf8.count <= maxBytes else { throw Failure(line: 1, reason: "the file is larger than 16 MB") }
        var parser = Parser(bytes: Array(text.utf8))
        parser.skipSpace()
        if parser.consume(word: "return") { parser.skipSpace() }
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.atEnd else { throw parser.failure("text after the table") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var values = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index >= bytes.count }
        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        func failure(_ reason: String) -> Failure {
            Failure(line: bytes[..<min(index, bytes.count)].count { $0 == 10 } + 1, reason: reason)
        }

        mutating func skipSpace() {
            while let byte = current {
                if byte == 32 || byte == 9 || byte == 10 || byte == 13 {
                    index += 1
                } else if byte == UInt8(ascii: "-"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "-") {
                    index += 2
                    if let level = longBracketLevel() {
                        _ = try? longString(level: level)
                    } else {
                        while let next = current, next != 10 { index += 1 }
                    }
                } else {
                    return
                }
            }
        }

        mutating func consume(word: String) -> Bool {
            let wanted = Array(word.utf8)
            guard index + wanted.count <= bytes.count, Array(bytes[index..<index + wanted.count]) == wanted else { return false }
            if index + wanted.count < bytes.count, isNameByte(bytes[index + wanted.count]) { return false }
            index += wanted.count
            return true
        }

        func isNameByte(_ byte: UInt8) -> Bool {
            (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95
        }

        mutating func value(depth: Int) throws -> LuaValue {
            values += 1
            guard values <= LuaTableLiteral.maxValues else { throw failure("more than \(LuaTableLiteral.maxValues) values") }
            skipSpace()
            guard let byte = current else { throw failure("the file ends where a value was expected") }
            switch byte {
            case UInt8(ascii: "{"): return .table(try table(depth: depth + 1))
            case UInt8(ascii: "\""), UInt8(ascii: "'"): return .string(try quoted())
            case UInt8(ascii: "["):
                guard let level = longBracketLevel() else { throw failure("a '[' where a value was expected") }
                return .string(try longString(level: level))
            default:
                if consume(word: "true") { return .boolean(true) }
                if consume(word: "false") { return .boolean(false) }
                if consume(word: "nil") { return .nil }
                return .number(try number())
            }
        }

        mutating func table(depth: Int) throws -> LuaTable {
            guard depth <= LuaTableLiteral.maxDepth else { throw failure("tables nested more than \(LuaTableLiteral.maxDepth) deep") }
            index += 1  // {
            var table = LuaTable()
            var position = 1
            while true {
                skipSpace()
                guard let byte = current else { throw failure("the file ends inside a table") }
                if byte == UInt8(ascii: "}") {
                    index += 1
                    return table
                }
                var key: LuaTable.Key?
                if byte == UInt8(ascii: "["), longBracketLevel() == nil {
                    index += 1
                    let keyValue = try value(depth: depth)
                    skipSpace()
                    guard current == UInt8(ascii: "]") else { throw failure("a key without its ']'") }
                    index += 1
                    switch keyValue {
                    case .string(let name): key = .name(name)
                    case .number(let number) where number == number.rounded() && abs(number) < 1e15: key = .index(Int(number))
                    default: throw failure("a key that is neither a string nor a whole number")
                    }
                    try expectEquals()
                } else if isNameByte(byte), !(byte >= 48 && byte <= 57) {
                    let start = index
                    while let next = current, isNameByte(next) { index += 1 }
                    let name = String(decoding: bytes[start..<index], as: UTF8.self)
                    skipSpace()
                    if current == UInt8(ascii: "=") {
                        key = .name(name)
                        index += 1
                    } else {
                        index = start
                    }
                }
                let item = try value(depth: depth)
                if let key {
                    table.entries.append((key, item))
                } else {
                    table.entries.append((.index(position), item))
                    position += 1
                }
                skipSpace()
                if current == UInt8(ascii: ",") || current == UInt8(ascii: ";") {
                    index += 1
                } else if atEnd {
                    throw failure("the file ends inside a table")
                } else if current != UInt8(ascii: "}") {
                    throw failure("a ',' or '}' was expected")
                }
            }
        }

        mutating func expectEquals() throws {
            skipSpace()
            guard current == UInt8(ascii: "=") else { throw failure("'=' was expected after a key") }
            index += 1
        }

        /// At `[` followed by `=`… and `[`: the number of `=`; nil when it is not a long bracket.
        func longBracketLevel() -> Int? {
            guard current == UInt8(ascii: "[") else { return nil }
            var probe = index + 1
            var level = 0
            while probe < bytes.count, bytes[probe] == UInt8(ascii: "=") {
                level += 1
                probe += 1
            }
            return probe < bytes.count && bytes[probe] == UInt8(ascii: "[") ? level : nil
        }

        mutating func longString(level: Int) throws -> String {
            index += level + 2
            if current == 13 { index += 1 }
            if current == 10 { index += 1 }
            let closing = [UInt8(ascii: "]")] + Array(repeating: UInt8(ascii: "="), count: level) + [UInt8(ascii: "]")]
            let start = index
            while index + closing.count <= bytes.count {
                if Array(bytes[index..<index + closing.count]) == closing {
                    let text = String(decoding: bytes[start..<index], as: UTF8.self)
                    index += closing.count
                    return text
                }
                index += 1
            }
            throw failure("a long string that never ends")
        }

        mutating func quoted() throws -> String {
            let quote = bytes[index]
            index += 1
            var out: [UInt8] = []
            while let byte = current {
                index += 1
                if byte == quote { return String(decoding: out, as: UTF8.self) }
                if byte == 10 { throw failure("a line break inside a string") }
                guard byte == UInt8(ascii: "\\") else {
                    out.append(byte)
                    continue
                }
                guard let escaped = current else { break }
                index += 1
                switch escaped {
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "a"): out.append(7)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "v"): out.append(11)
                case 10: out.append(10)
                case UInt8(ascii: "x"):
                    guard index + 2 <= bytes.count, let value = UInt8(String(decoding: bytes[index..<index + 2], as: UTF8.self), radix: 16) else {
                        throw failure("a bad \\x escape")
                    }
                    out.append(value)
                    index += 2
                case UInt8(ascii: "u"):
                    guard current == UInt8(ascii: "{"), let close = bytes[index...].prefix(10).firstIndex(of: UInt8(ascii: "}")),
                          let code = UInt32(String(decoding: bytes[(index + 1)..<close], as: UTF8.self), radix: 16),
                          let scalar = Unicode.Scalar(code) else { throw failure("a bad \\u escape") }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    index = close + 1
                case UInt8(ascii: "z"):
                    while let next = current, next == 32 || next == 9 || next == 10 || next == 13 { index += 1 }
                case 48...57:
                    var digits = [escaped]
                    while digits.count < 3, let next = current, next >= 48, next <= 57 {
                        digits.append(next)
                        index += 1
                    }
                    guard let value = Int(String(decoding: digits, as: UTF8.self)), value <= 255 else { throw failure("a bad decimal escape") }
                    out.append(UInt8(value))
                default: out.append(escaped)
                }
            }
            throw failure("a string that never ends")
        }

        mutating func number() throws -> Double {
            let start = index
            while let byte = current, isNameByte(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
                index += 1
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if text.lowercased().hasPrefix("0x") || text.lowercased().hasPrefix("-0x"), let value = Int(text.replacingOccurrences(of: "0x", with: "").replacingOccurrences(of: "0X", with: ""), radix: 16) {
                return Double(value)
            }
            guard !text.isEmpty, let value = Double(text), value.isFinite else {
                index = start
                throw failure(text.isEmpty ? "a value was expected" : "'\(String(text.prefix(20)))' is not a value (only literals are read)")
            }
            return value
        }
    }
}

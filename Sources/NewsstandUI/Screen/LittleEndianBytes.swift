/// Little-endian integers in the bytes of a file Newsstand writes for itself (a kept frame, the last shelf):
/// `append(littleEndian:)` writes them, `LittleEndianReader` reads the fields back in order.
extension Array where Element == UInt8 {
    public mutating func append<Integer: FixedWidthInteger>(littleEndian value: Integer) {
        for shift in stride(from: 0, to: Integer.bitWidth, by: 8) { append(UInt8(truncatingIfNeeded: value >> shift)) }
    }
}

/// Reads a file's fields in order, through a buffer pointer (a frame is thousands of cells, read at start on the way
/// to the first frame). Every read past the end gives nil: the bytes come from a file.
public struct LittleEndianReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    public var isAtEnd: Bool { position == bytes.count }

    /// The bytes not read yet.
    public var rest: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[position...]) }

    public mutating func take(_ count: Int) -> UnsafeBufferPointer<UInt8>? {
        guard count >= 0, bytes.count - position >= count else { return nil }
        defer { position += count }
        return UnsafeBufferPointer(rebasing: bytes[position..<(position + count)])
    }

    /// Reads past `expected` (a file's magic) when the next bytes are exactly those; false, and nothing read, when not.
    public mutating func expect(_ expected: [UInt8]) -> Bool {
        guard bytes.count - position >= expected.count,
              bytes[position..<(position + expected.count)].elementsEqual(expected) else { return false }
        position += expected.count
        return true
    }

    public mutating func byte() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    public mutating func integer<Integer: FixedWidthInteger & UnsignedInteger>(_: Integer.Type) -> Integer? {
        guard let field = take(Integer.bitWidth / 8) else { return nil }
        var value: Integer = 0
        for index in field.indices { value |= Integer(field[index]) << (8 * index) }
        return value
    }
}

/// A gzip body that inflates to a great many zero bytes, about 1,032 times its size, made as it is sent
/// (``FaultPlan/gzipBombInflatedBytes``).
///
/// The deflate stream is one dynamic-Huffman block whose only codes are a literal 0 (2 bits), end of block
/// (2 bits) and "copy 258 bytes from distance 1" (1 bit for the length, 1 for the distance): after a 14-byte
/// head, every zero byte of the stream is four such copies, 1,032 bytes of output. The trailer's CRC-32 of the
/// zeros is computed by polynomial arithmetic, not by running over them, so a bomb of gigabytes costs nothing.
struct GzipBomb {
    /// Zero bytes between head and tail, each inflating to 1,032 bytes.
    let zeroBytes: Int64

    /// A bomb inflating to about `inflatedBytes` (at least ``inflatedBytes(zeroBytes:)`` of 0).
    init(inflatedBytes: Int64) {
        zeroBytes = max(0, (inflatedBytes - Self.headInflatedBytes) / 1032)
    }

    /// The exact inflated size.
    var inflatedBytes: Int64 { Self.headInflatedBytes + zeroBytes * 1032 }

    /// The whole compressed length: head, zeros, tail.
    var compressedBytes: Int64 { Int64(Self.head.count) + zeroBytes + Int64(tail.count) }

    /// The gzip header and the deflate block's head (with a literal 0 and three copies), byte-aligned.
    static let head: [UInt8] = {
        var writer = BitWriter()
        writer.bits(1, 1)    // BFINAL
        writer.bits(2, 2)    // BTYPE: dynamic Huffman
        writer.bits(29, 5)   // HLIT: 286 literal/length codes (up to 285, "length 258")
        writer.bits(0, 5)    // HDIST: 1 distance code (0, "distance 1")
        writer.bits(14, 4)   // HCLEN: 18 code-length code lengths
        // Code-length code lengths in the order of RFC 1951: symbol 1 → 1 bit, 2 → 2 bits, 18 → 2 bits.
        let codeLengthLengths: [Int: UInt32] = [1: 1, 2: 2, 18: 2]
        for symbol in [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1] {
            writer.bits(codeLengthLengths[symbol] ?? 0, 3)
        }
        // Canonical code-length codes: 1 → 0; 2 → 10; 18 → 11.
        func length1() { writer.huffman(0b0, 1) }
        func length2() { writer.huffman(0b10, 2) }
        func zeros(_ count: UInt32) { writer.huffman(0b11, 2); writer.bits(count - 11, 7) }
        // Literal/length lengths: 0 → 2, 1...255 → 0, 256 → 2, 257...284 → 0, 285 → 1; distance 0 → 1.
        length2(); zeros(138); zeros(117); length2(); zeros(28); length1()
        length1()
        // Canonical literal/length codes: 285 → 0; 0 → 10; 256 → 11. Distance 0 → 0.
        writer.huffman(0b10, 2)                        // the literal 0
        for _ in 0..<3 { writer.huffman(0, 1); writer.huffman(0, 1) }  // copies, up to a byte boundary
        precondition(writer.bitCount % 8 == 0, "the bomb's head must end on a byte boundary")
        return [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3] + writer.bytes
    }()

    /// What the head inflates to: the literal and three copies.
    static let headInflatedBytes: Int64 = 1 + 3 * 258

    /// End of block, then the gzip trailer (CRC-32 and length, modulo 2^32, little-endian).
    var tail: [UInt8] {
        let crc = Self.crc32OfZeros(inflatedBytes)
        let length = UInt32(truncatingIfNeeded: inflatedBytes)
        return [0b11] + (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) }
            + (0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * $0)) }
    }

    // MARK: CRC-32 of zeros

    private static let polynomial: UInt32 = 0xEDB8_8320

    /// a(x)·b(x) modulo the CRC polynomial (bit-reflected, as zlib's `multmodp`).
    static func multiplyModP(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var mask: UInt32 = 1 << 31
        var product: UInt32 = 0
        var b = b
        while true {
            if a & mask != 0 {
                product ^= b
                if a & (mask - 1) == 0 { break }
            }
            mask >>= 1
            b = b & 1 != 0 ? (b >> 1) ^ polynomial : b >> 1
        }
        return product
    }

    /// x^(2^k) modulo the polynomial, k = 0...31.
    private static let powersOfTwo: [UInt32] = {
        var power: UInt32 = 1 << 30  // x^1
        var table = [power]
        for _ in 1..<32 {
            power = multiplyModP(power, power)
            table.append(power)
        }
        return table
    }()

    /// The CRC-32 (as gzip's) of `count` zero bytes: the register, all ones, times x^(8·count), inverted.
    static func crc32OfZeros(_ count: Int64) -> UInt32 {
        var power: UInt32 = 1 << 31  // x^0
        var n = UInt64(max(0, count))
        var k = 3  // 8·count = count·2^3
        while n != 0 {
            if n & 1 != 0 { power = multiplyModP(powersOfTwo[k & 31], power) }
            n >>= 1
            k += 1
        }
        return multiplyModP(power, 0xFFFF_FFFF) ^ 0xFFFF_FFFF
    }
}

/// Packs bits least significant first, as deflate does.
private struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private(set) var bitCount = 0

    /// `count` bits of `value`, lowest first (header fields, extra bits).
    mutating func bits(_ value: UInt32, _ count: Int) {
        for index in 0..<count { append(value >> index & 1 != 0) }
    }

    /// A Huffman code of `length` bits, highest first.
    mutating func huffman(_ code: UInt32, _ length: Int) {
        for index in stride(from: length - 1, through: 0, by: -1) { append(code >> index & 1 != 0) }
    }

    private mutating func append(_ bit: Bool) {
        if bitCount % 8 == 0 { bytes.append(0) }
        if bit { bytes[bytes.count - 1] |= UInt8(1) << (bitCount % 8) }
        bitCount += 1
    }
}

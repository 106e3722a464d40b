import Foundation

/// The id KOReader's progress sync gives a book, which two devices must agree on for their positions to meet.
///
/// KOReader's default ("binary") is its *partial MD5* of the file exactly as stored: 1,024-byte samples at twelve
/// offsets — 0, then 1,024 × 4^i for i = 0…10 (the first is 0, not 256: LuaJIT masks the shift count `-2` to 30 and
/// `1024 << 30` overflows 32 bits to 0) — taken in order until the first offset at or past the end, the last one
/// cut short rather than padded, concatenated and hashed once. At most 12 KiB is read whatever the size. The other
/// choice ("filename") is the MD5 of the file's name without its folder. See kosync SPEC §8.
public enum KOReaderDocumentID {
    public static let sampleSize = 1024
    /// Where the samples start, in order.
    public static let sampleOffsets: [Int64] = [0] + (0...10).map { Int64(1024) << (2 * $0) }

    /// The partial MD5 of the file at `url`, reading only the sampled bytes.
    public static func partialMD5(ofFile url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        return try partialMD5(size: Int64(size)) { offset, count in
            try handle.seek(toOffset: UInt64(offset))
            return try handle.read(upToCount: count) ?? Data()
        }
    }

    /// The partial MD5 of `size` bytes read through `read(offset, count)`, which returns up to `count` bytes from
    /// `offset` (fewer only at the end).
    public static func partialMD5(size: Int64, read: (Int64, Int) throws -> Data) throws -> String {
        let digest = try MD5Hex()
        for offset in sampleOffsets {
            guard offset < size else { break }
            let count = Int(min(Int64(sampleSize), size - offset))
            digest.update(try read(offset, count).prefix(count))
        }
        return digest.finalize()
    }

    /// The id under KOReader's "filename" method: the MD5 of the name without its folder.
    public static func fileNameMD5(_ fileName: String) throws -> String {
        try MD5Hex.of((fileName as NSString).lastPathComponent)
    }
}

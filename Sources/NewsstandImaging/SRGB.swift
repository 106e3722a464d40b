import Foundation

/// sRGB transfer function helpers shared by the resampler and the ASCII renderer.
///
/// Every conversion used per pixel goes through a table built once: `powf` per sample was the renderer's hotspot.
enum SRGB {
    /// sRGB-encoded byte → linear light in 0...1.
    static let toLinear: [Float] = (0..<256).map { decodeExact(Float($0) / 255) }

    /// The exact transfer function, sRGB-encoded 0...1 → linear 0...1 (for building tables).
    static func decodeExact(_ c: Float) -> Float {
        c <= 0.04045 ? c / 12.92 : powf((c + 0.055) / 1.055, 2.4)
    }

    /// The exact transfer function, linear 0...1 → sRGB-encoded 0...1 (for building tables and reference values).
    static func encodeExact(_ linear: Float) -> Float {
        let l = min(max(linear, 0), 1)
        return l <= 0.0031308 ? l * 12.92 : 1.055 * powf(l, 1 / 2.4) - 0.055
    }

    /// Buckets in the encoding tables over linear 0...1.
    private static let bucketCount = 4096

    /// `encode` samples at bucket edges, `bucketCount + 1` of them (linear interpolation in between).
    private static let encodeTable: [Float] = (0...bucketCount).map { encodeExact(Float($0) / Float(bucketCount)) }

    /// For `encodeByte`: the smallest linear value that rounds to each byte (index 0 is 0).
    private static let byteThresholds: [Float] = (0..<256).map { $0 == 0 ? 0 : decodeExact((Float($0) - 0.5) / 255) }

    /// For `encodeByte`: the byte of each bucket's lower edge.
    private static let bucketBytes: [UInt8] = (0..<bucketCount).map { bucket in
        let linear = Float(bucket) / Float(bucketCount)
        var byte = 0
        while byte < 255 && byteThresholds[byte + 1] <= linear { byte += 1 }
        return UInt8(byte)
    }

    /// Linear light in 0...1 → sRGB-encoded value in 0...1 (table with linear interpolation; error below 1e-3,
    /// which is less than a quarter of an 8-bit step).
    @inline(__always)
    static func encode(_ linear: Float) -> Float {
        let scaled = min(max(linear, 0), 1) * Float(bucketCount)
        let index = min(Int(scaled), bucketCount - 1)
        let fraction = scaled - Float(index)
        return encodeTable.withUnsafeBufferPointer { table in
            table[index] + (table[index + 1] - table[index]) * fraction
        }
    }

    /// Linear light in 0...1 → sRGB-encoded byte, rounded to nearest (exact: a bucket table, then the byte
    /// thresholds).
    @inline(__always)
    static func encodeByte(_ linear: Float) -> UInt8 {
        let l = linear.isNaN ? 0 : min(max(linear, 0), 1)
        let index = min(Int(l * Float(bucketCount)), bucketCount - 1)
        var byte = Int(bucketBytes[index])
        byteThresholds.withUnsafeBufferPointer { thresholds in
            while byte < 255 && thresholds[byte + 1] <= l { byte += 1 }
        }
        return UInt8(byte)
    }
}

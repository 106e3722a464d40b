import Foundation

/// sRGB transfer function helpers shared by the resampler and the ASCII renderer.
enum SRGB {
    /// sRGB-encoded byte → linear light in 0...1.
    static let toLinear: [Float] = (0..<256).map { i in
        let c = Float(i) / 255
        return c <= 0.04045 ? c / 12.92 : powf((c + 0.055) / 1.055, 2.4)
    }

    /// Linear light in 0...1 → sRGB-encoded value in 0...1.
    @inline(__always)
    static func encode(_ linear: Float) -> Float {
        let l = min(max(linear, 0), 1)
        return l <= 0.0031308 ? l * 12.92 : 1.055 * powf(l, 1 / 2.4) - 0.055
    }

    /// Linear light in 0...1 → sRGB-encoded byte (rounded).
    @inline(__always)
    static func encodeByte(_ linear: Float) -> UInt8 {
        UInt8(min(max(encode(linear) * 255 + 0.5, 0), 255))
    }
}

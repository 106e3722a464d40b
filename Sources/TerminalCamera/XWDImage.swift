import Foundation
import NewsstandImaging

/// Reads the window dumps `xwd` writes (X Window Dump, file version 7) into a `RasterImage`: the true-colour
/// ZPixmap forms an X server of depth 24 writes (24 or 32 bits a pixel, either byte order), which is what
/// `VirtualDisplay` runs. Anything else is refused, saying what it is.
enum XWDImage {
    static func decode(_ data: Data) throws -> RasterImage {
        let bytes = [UInt8](data)
        func field(_ index: Int) -> Int {
            let at = index * 4
            guard at + 4 <= bytes.count else { return -1 }
            return Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        let headerSize = field(0), version = field(1), format = field(2), width = field(4), height = field(5)
        let byteOrder = field(7), bitsPerPixel = field(11), bytesPerLine = field(12), visualClass = field(13)
        let masks = (red: field(14), green: field(15), blue: field(16)), colors = field(19)
        guard headerSize >= 100, version == 7, format == 2, visualClass == 4 || visualClass == 5,
              bitsPerPixel == 32 || bitsPerPixel == 24, width > 0, height > 0, width <= 16_384, height <= 16_384, colors >= 0 else {
            throw TerminalCameraError.failed("xwd wrote a dump this reader does not take (version \(version), format \(format), \(bitsPerPixel) bits a pixel, visual class \(visualClass))")
        }
        let start = headerSize + colors * 12, step = bitsPerPixel / 8
        guard bytesPerLine >= width * step, start + bytesPerLine * height <= bytes.count else {
            throw TerminalCameraError.failed("xwd's dump is shorter than its \(width)×\(height) pixels")
        }
        func shift(_ mask: Int) -> Int { mask == 0 ? 0 : mask.trailingZeroBitCount }
        let shifts = (red: shift(masks.red), green: shift(masks.green), blue: shift(masks.blue))
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            var at = start + y * bytesPerLine
            for x in 0..<width {
                var value = 0
                for k in 0..<step {
                    value |= Int(bytes[at + k]) << (byteOrder == 0 ? 8 * k : 8 * (step - 1 - k))
                }
                let o = (y * width + x) * 4
                pixels[o] = UInt8(truncatingIfNeeded: (value & masks.red) >> shifts.red)
                pixels[o + 1] = UInt8(truncatingIfNeeded: (value & masks.green) >> shifts.green)
                pixels[o + 2] = UInt8(truncatingIfNeeded: (value & masks.blue) >> shifts.blue)
                at += step
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels)
    }
}

/// Decoded pixels, 8-bit RGBA, row-major, no padding.
///
/// Colour samples are sRGB-encoded with straight (non-premultiplied) alpha.
/// `pixels.count == width * height * 4`.
public struct RasterImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    /// Wraps existing RGBA bytes. `pixels` must hold exactly `width * height * 4` bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0, "RasterImage dimensions must not be negative")
        precondition(pixels.count == width * height * 4,
                     "RasterImage needs \(width * height * 4) bytes for \(width)x\(height) RGBA, got \(pixels.count)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image filled with one colour (default: transparent black).
    public init(width: Int, height: Int, red: UInt8 = 0, green: UInt8 = 0, blue: UInt8 = 0, alpha: UInt8 = 0) {
        let w = max(0, width), h = max(0, height)
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        if red != 0 || green != 0 || blue != 0 || alpha != 0 {
            for i in stride(from: 0, to: pixels.count, by: 4) {
                pixels[i] = red; pixels[i + 1] = green; pixels[i + 2] = blue; pixels[i + 3] = alpha
            }
        }
        self.init(width: w, height: h, pixels: pixels)
    }

    /// True when the image has no pixels.
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// The RGBA sample of the pixel at (x, y); x and y must be in range.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}

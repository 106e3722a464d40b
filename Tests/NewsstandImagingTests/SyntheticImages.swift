@testable import NewsstandImaging

/// Small generated pictures with known answers.
enum SyntheticImages {
    /// An opaque grey image whose grey level at each pixel comes from `value(x, y)`.
    static func grey(width: Int, height: Int, _ value: (Int, Int) -> UInt8) -> RasterImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let v = value(x, y)
                let i = (y * width + x) * 4
                pixels[i] = v; pixels[i + 1] = v; pixels[i + 2] = v
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels)
    }

    static func solid(width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8) -> RasterImage {
        RasterImage(width: width, height: height, red: red, green: green, blue: blue, alpha: 255)
    }
}

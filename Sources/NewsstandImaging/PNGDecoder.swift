import CPNG
import Foundation

/// PNG decoding through libpng's simplified API (which guards its own errors with setjmp).
///
/// Output is 8-bit sRGB RGBA: libpng expands palettes, grey and low bit depths, turns tRNS into alpha,
/// reduces 16-bit samples and applies the file's gAMA so samples are sRGB-encoded.
enum PNGDecoder {
    static func decode(_ data: Data, maximumDimension: Int, maximumPixels: Int? = nil) throws -> RasterImage {
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> RasterImage in
            guard let base = raw.baseAddress, raw.count > 0 else {
                throw ImageDecodingError("truncated PNG data")
            }
            var image = png_image()
            guard newsstand_png_begin(&image, base, raw.count) != 0 else {
                throw error(from: &image)
            }
            let width = Int(image.width), height = Int(image.height)
            guard width > 0, height > 0 else {
                newsstand_png_free(&image)
                throw ImageDecodingError("PNG has zero width or height")
            }
            guard width <= maximumDimension, height <= maximumDimension else {
                newsstand_png_free(&image)
                throw ImageDecodingError("image too large: PNG is \(width)x\(height), limit is \(maximumDimension) pixels per side")
            }
            if let maximumPixels, width * height > maximumPixels {
                newsstand_png_free(&image)
                throw ImageDecoder.tooManyPixels("PNG", width: width, height: height, limit: maximumPixels)
            }
            // libpng writes every byte, so the buffer is not zero-filled first (48 MB for a 3000 × 4000 cover).
            var ok: Int32 = 0
            let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, initialized in
                ok = newsstand_png_finish_rgba(&image, buffer.baseAddress)
                if ok == 0 { buffer.initialize(repeating: 0) } // never read, but never uninitialised either
                initialized = buffer.count
            }
            guard ok != 0 else {
                throw error(from: &image)
            }
            return RasterImage(width: width, height: height, pixels: pixels)
        }
    }

    /// Maps libpng's message to plain words.
    private static func error(from image: inout png_image) -> ImageDecodingError {
        let message = String(cString: newsstand_png_message(&image))
        newsstand_png_free(&image)
        let lower = message.lowercased()
        if lower.contains("crc") {
            return ImageDecodingError("PNG CRC error (\(message))")
        }
        if lower.contains("signature") {
            return ImageDecodingError("bad PNG signature")
        }
        if lower.contains("not enough") || lower.contains("end of") || lower.contains("eof") || lower.contains("truncat") {
            return ImageDecodingError("truncated PNG data (\(message))")
        }
        return ImageDecodingError("invalid PNG data (\(message.isEmpty ? "unknown libpng error" : message))")
    }
}

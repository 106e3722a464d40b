import Foundation

/// Turns PNG or JPEG bytes into a `RasterImage`, recognising the format from the bytes themselves.
///
/// Decoding never traps on bad input: corrupt, truncated or hostile data throws `ImageDecodingError`.
/// Images wider or taller than `maximumDimension` are refused before any pixel memory is allocated.
public enum ImageDecoder {
    /// Largest accepted width or height, in source pixels (a guard against decompression bombs).
    public static let maximumDimension = 20_000

    /// Sniffs PNG/JPEG from the bytes (not the file name). `targetSize` is a hint: JPEGs are decoded with
    /// libjpeg-turbo's DCT scaling (scale_num/scale_denom 1/2, 1/4, 1/8) to the smallest scale still >= the hint;
    /// the result may be larger than the hint, never smaller unless the source is. PNGs ignore the hint.
    ///
    /// JPEG EXIF orientation (APP1 tag 0x0112) is applied, so the result is upright; the hint is
    /// interpreted in upright terms too.
    ///
    /// `maximumPixels`, when given, refuses images whose stored width × height is larger, before any
    /// pixel memory is allocated (a 20,000 × 20,000 PNG would need 1.6 GB).
    public static func decode(_ data: Data, targetSize: (width: Int, height: Int)? = nil, maximumPixels: Int? = nil) throws -> RasterImage {
        switch format(of: data) {
        case .png:
            return try PNGDecoder.decode(data, maximumDimension: maximumDimension, maximumPixels: maximumPixels)
        case .jpeg:
            return try JPEGDecoder.decode(data, targetSize: targetSize, maximumDimension: maximumDimension, maximumPixels: maximumPixels)
        case nil:
            if data.count >= 4, Array(data.prefix(4)).dropFirst().elementsEqual(Array("PNG".utf8)) {
                throw ImageDecodingError("bad PNG signature")
            }
            if let name = formatName(of: data) { throw ImageDecodingError("a \(name) image, not PNG or JPEG") }
            throw ImageDecodingError.unrecognisedFormat
        }
    }

    /// The error for an image of `width` × `height` over a pixel limit, in megapixels.
    static func tooManyPixels(_ kind: String, width: Int, height: Int, limit: Int) -> ImageDecodingError {
        func megapixels(_ count: Int) -> String { String(format: "%.1f", Double(count) / 1_000_000) }
        return ImageDecodingError("image too large: \(kind) is \(width)x\(height) (\(megapixels(width * height)) megapixels), "
                                  + "limit is \(megapixels(limit)) megapixels")
    }

    /// The format the bytes are in, judged by their signature, or nil if neither PNG nor JPEG.
    public static func format(of data: Data) -> ImageFormat? {
        let head = Array(data.prefix(8))
        if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] {
            return .png
        }
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF {
            return .jpeg
        }
        return nil
    }
}

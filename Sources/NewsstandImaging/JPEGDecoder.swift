import CJPEG
import Foundation

/// JPEG decoding through libjpeg-turbo with a longjmp-based error manager (see Sources/CJPEG/shim.h).
///
/// Handles baseline, progressive and arithmetic-coded 8-bit JPEGs in grayscale, YCbCr, RGB, CMYK and YCCK
/// (Adobe-inverted CMYK included), converting everything to RGBA. Data that ends mid-scan still yields the
/// decodable part of the picture (libjpeg fills the rest); data that ends before the frame header throws
/// "truncated JPEG data". 12-bit JPEGs are refused. Progressive files with more than 1000 scans are refused.
enum JPEGDecoder {
    static func decode(_ data: Data, targetSize: (width: Int, height: Int)?, maximumDimension: Int, maximumPixels: Int? = nil) throws -> RasterImage {
        let orientation = ExifOrientation(jpeg: data)
        var hint = targetSize.map { (max(0, $0.width), max(0, $0.height)) } ?? (0, 0)
        if orientation.swapsAxes { hint = (hint.1, hint.0) }
        let clampedHint = (UInt32(min(hint.0, Int(UInt32.max))), UInt32(min(hint.1, Int(UInt32.max))))

        guard let context = newsstand_jpeg_open() else {
            throw ImageDecodingError("out of memory starting the JPEG decoder")
        }
        defer { newsstand_jpeg_close(context) }

        let decoded = try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> RasterImage in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress, raw.count > 0 else {
                throw ImageDecodingError("truncated JPEG data")
            }
            var status = newsstand_jpeg_read_header(context, base, UInt(raw.count), UInt32(maximumDimension),
                                                    clampedHint.0, clampedHint.1)
            try check(status, context)
            let sourceWidth = Int(context.pointee.cinfo.image_width), sourceHeight = Int(context.pointee.cinfo.image_height)
            if let maximumPixels, sourceWidth * sourceHeight > maximumPixels {
                throw ImageDecoder.tooManyPixels("JPEG", width: sourceWidth, height: sourceHeight, limit: maximumPixels)
            }
            status = newsstand_jpeg_start(context)
            try check(status, context)
            let width = Int(context.pointee.output_width)
            let height = Int(context.pointee.output_height)
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            status = pixels.withUnsafeMutableBufferPointer { newsstand_jpeg_read_rgba(context, $0.baseAddress) }
            try check(status, context)
            return RasterImage(width: width, height: height, pixels: pixels)
        }
        return orientation.apply(to: decoded)
    }

    private static func check(_ status: Int32, _ context: UnsafeMutablePointer<newsstand_jpeg_context>) throws {
        guard Int(status) != Int(NEWSSTAND_JPEG_OK) else { return }
        let message = String(cString: newsstand_jpeg_message(context))
        switch Int(status) {
        case Int(NEWSSTAND_JPEG_TRUNCATED):
            throw ImageDecodingError("truncated JPEG data")
        case Int(NEWSSTAND_JPEG_BAD_PRECISION):
            throw ImageDecodingError("unsupported JPEG precision (\(message)); only 8-bit JPEGs can be decoded")
        case Int(NEWSSTAND_JPEG_TOO_LARGE):
            throw ImageDecodingError("image too large: \(message)")
        case Int(NEWSSTAND_JPEG_TOO_MANY_SCANS):
            throw ImageDecodingError("invalid JPEG data: \(message)")
        default:
            throw ImageDecodingError("invalid JPEG data: \(message.isEmpty ? "unknown libjpeg error" : message)")
        }
    }
}

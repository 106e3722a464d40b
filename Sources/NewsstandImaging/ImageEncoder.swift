import CJPEG
import CPNG
import Foundation

/// Writes `RasterImage`s as PNG (libpng's simplified write API) or JPEG (libjpeg-turbo's compressor).
///
/// Used to make test and benchmark pictures; the app itself never writes images.
public enum ImageEncoder {
    /// 8-bit RGBA PNG bytes. `fast` favours speed over size (libpng's `PNG_IMAGE_FLAG_FAST`): for pictures sent to
    /// a terminal and read back at once, not for files to keep.
    public static func png(_ image: RasterImage, fast: Bool = false) throws -> Data {
        guard !image.isEmpty else { throw ImageDecodingError("cannot write an empty image") }
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        png.format = 3 // PNG_FORMAT_RGBA (a composite macro Swift cannot see)
        if fast { png.flags = 0x02 } // PNG_IMAGE_FLAG_FAST
        let stride = Int32(image.width * 4)
        // Compressed once, into a buffer as large as libpng's bound (PNG_IMAGE_PNG_SIZE_MAX, a macro Swift cannot
        // see): rows with their filter bytes, zlib's worst case, the chunks around them. Should the bound be short,
        // libpng says the size it needs and the write is done again.
        let raw = image.height * (image.width * 4 + 1)
        let deflated = raw + (raw + 7) / 8 + (raw + 63) / 64 + 11
        var size = deflated + 12 * (deflated / 8192 + 1) + 1024
        var output = Data(count: size)
        for _ in 0..<2 {
            let capacity = output.count
            let ok = output.withUnsafeMutableBytes { out in
                image.pixels.withUnsafeBytes { png_image_write_to_memory(&png, out.baseAddress, &size, 0, $0.baseAddress, stride, nil) }
            }
            if ok != 0 {
                png_image_free(&png)
                return output.prefix(size)
            }
            guard size > capacity else { break }
            png_image_free(&png)
            png.warning_or_error = 0
            output = Data(count: size)
        }
        let message = String(cString: newsstand_png_message(&png))
        png_image_free(&png)
        throw ImageDecodingError("cannot write PNG: \(message)")
    }

    /// Baseline RGB JPEG bytes at `quality` (1–100); alpha is dropped.
    /// libjpeg's standard error handler ends the process on an encoder error, which only happens when memory runs out.
    public static func jpeg(_ image: RasterImage, quality: Int = 90) throws -> Data {
        guard !image.isEmpty else { throw ImageDecodingError("cannot write an empty image") }
        let info = UnsafeMutablePointer<jpeg_compress_struct>.allocate(capacity: 1)
        let errors = UnsafeMutablePointer<jpeg_error_mgr>.allocate(capacity: 1)
        let buffer = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>.allocate(capacity: 1)
        let size = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
        defer { info.deallocate(); errors.deallocate(); buffer.deallocate(); size.deallocate() }
        info.initialize(to: jpeg_compress_struct())
        errors.initialize(to: jpeg_error_mgr())
        buffer.initialize(to: nil)
        size.initialize(to: 0)

        info.pointee.err = jpeg_std_error(errors)
        jpeg_CreateCompress(info, JPEG_LIB_VERSION, MemoryLayout<jpeg_compress_struct>.size)
        jpeg_mem_dest(info, buffer, size)
        info.pointee.image_width = JDIMENSION(image.width)
        info.pointee.image_height = JDIMENSION(image.height)
        info.pointee.input_components = 3
        info.pointee.in_color_space = JCS_RGB
        jpeg_set_defaults(info)
        jpeg_set_quality(info, Int32(min(max(quality, 1), 100)), 1)
        jpeg_start_compress(info, 1)
        var row = [UInt8](repeating: 0, count: image.width * 3)
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<image.height {
                let base = y * image.width * 4
                for x in 0..<image.width {
                    row[x * 3] = pixels[base + x * 4]
                    row[x * 3 + 1] = pixels[base + x * 4 + 1]
                    row[x * 3 + 2] = pixels[base + x * 4 + 2]
                }
                row.withUnsafeMutableBufferPointer { rowBuffer in
                    var pointer: JSAMPROW? = rowBuffer.baseAddress
                    _ = jpeg_write_scanlines(info, &pointer, 1)
                }
            }
        }
        jpeg_finish_compress(info)
        jpeg_destroy_compress(info)
        guard let bytes = buffer.pointee else { throw ImageDecodingError("cannot write JPEG") }
        let data = Data(bytes: bytes, count: Int(size.pointee))
        free(bytes)
        return data
    }
}

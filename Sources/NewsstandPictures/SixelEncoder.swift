import CSixel
import Foundation
import NewsstandImaging

/// Encodes a picture as DEC sixel graphics with libsixel (at most 256 colours, libsixel's own palette choice).
///
/// Sixel has no transparency worth relying on, so transparent pixels are composited over `background`
/// (the terminal's background colour as the theme knows it).
public enum SixelEncoder {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        /// libsixel, opened at the first sixel picture rather than linked, could not be loaded; `detail` is the loader's words.
        static func libraryUnavailable(_ detail: UnsafePointer<CChar>) -> Failure {
            Failure(description: "sixel pictures need \(NEWSSTAND_SIXEL_SONAME) (Debian's libsixel1 package), which could not be loaded: "
                    + String(cString: detail))
        }
    }

    /// The sixel sequence (`DCS … q … ST`) that draws `image` at the cursor.
    public static func encode(_ image: RasterImage, background: RGBColor) throws -> [UInt8] {
        guard !image.isEmpty else { throw Failure(description: "cannot encode an empty picture") }
        if let failure = newsstand_sixel_library_failure() { throw Failure.libraryUnavailable(failure) }
        var rgb = composited(image, over: background)
        let sink = Sink()
        var output: OpaquePointer?
        var dither: OpaquePointer?
        defer {
            if let output { newsstand_sixel_output_unref(output) }
            if let dither { newsstand_sixel_dither_unref(dither) }
        }
        let write: sixel_write_function = { data, size, context in
            guard let data, let context, size > 0 else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
            data.withMemoryRebound(to: UInt8.self, capacity: Int(size)) { sink.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: Int(size))) }
            return 0
        }
        try check(newsstand_sixel_output_new(&output, write, Unmanaged.passUnretained(sink).toOpaque(), nil), "sixel_output_new")
        try check(newsstand_sixel_dither_new(&dither, 256, nil), "sixel_dither_new")
        try rgb.withUnsafeMutableBufferPointer { pixels in
            try check(newsstand_sixel_dither_initialize(dither, pixels.baseAddress, Int32(image.width), Int32(image.height),
                                              newsstand_sixel_pixelformat_rgb888(), Int32(SIXEL_LARGE_AUTO), Int32(SIXEL_REP_AUTO),
                                              Int32(SIXEL_QUALITY_AUTO)), "sixel_dither_initialize")
            try check(newsstand_sixel_encode(pixels.baseAddress, Int32(image.width), Int32(image.height), 3, dither, output), "sixel_encode")
        }
        return sink.bytes
    }

    /// RGB888 pixels: each RGBA pixel blended over `background` by its alpha.
    static func composited(_ image: RasterImage, over background: RGBColor) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: image.width * image.height * 3)
        image.pixels.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { target in
                let under = [Int(background.red), Int(background.green), Int(background.blue)]
                for pixel in 0..<(image.width * image.height) {
                    let alpha = Int(source[pixel * 4 + 3])
                    for channel in 0..<3 {
                        let value = Int(source[pixel * 4 + channel])
                        target[pixel * 3 + channel] = UInt8((value * alpha + under[channel] * (255 - alpha) + 127) / 255)
                    }
                }
            }
        }
        return rgb
    }

    private final class Sink {
        var bytes: [UInt8] = []
    }

    private static func check(_ status: SIXELSTATUS, _ call: String) throws {
        if newsstand_sixel_failed(status) != 0 { throw Failure(description: "\(call) failed (status \(status))") }
    }
}

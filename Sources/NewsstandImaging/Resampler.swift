import Foundation

/// Resizes `RasterImage`s.
public enum Resampler {
    /// Area-averaging downscale in linear light (sRGB decode → average → encode).
    ///
    /// Each output pixel is the exact area-weighted mean of the source pixels it covers (a box filter,
    /// so upscaling falls back to near-nearest-neighbour). Alpha is kept: the output alpha is the mean
    /// alpha, and colour is averaged weighted by alpha (premultiplied), so fully transparent pixels do not
    /// bleed their colour into the result. Output is straight (non-premultiplied) RGBA like the input.
    /// A zero or negative size gives an empty image; an empty source gives transparent black.
    public static func areaAverage(_ image: RasterImage, width: Int, height: Int) -> RasterImage {
        let outW = max(0, width), outH = max(0, height)
        if outW == 0 || outH == 0 { return RasterImage(width: outW, height: outH, pixels: []) }
        if image.isEmpty { return RasterImage(width: outW, height: outH) }
        if outW == image.width && outH == image.height { return image }

        let linear = areaAverageLinear(image, width: outW, height: outH)
        var out = [UInt8](repeating: 0, count: outW * outH * 4)
        linear.withUnsafeBufferPointer { samples in
            out.withUnsafeMutableBufferPointer { out in
                for o in stride(from: 0, to: samples.count, by: 4) {
                    let a = samples[o + 3]
                    if a > 1e-7 {
                        out[o] = SRGB.encodeByte(samples[o] / a)
                        out[o + 1] = SRGB.encodeByte(samples[o + 1] / a)
                        out[o + 2] = SRGB.encodeByte(samples[o + 2] / a)
                    }
                    out[o + 3] = UInt8(min(max(a * 255 + 0.5, 0), 255))
                }
            }
        }
        return RasterImage(width: outW, height: outH, pixels: out)
    }

    /// The same area average, kept in linear light: `width * height * 4` floats, premultiplied RGBA
    /// (red, green and blue already multiplied by alpha), alpha in 0...1. Saves the encode and re-decode when
    /// the caller wants linear light anyway (the ASCII renderer). Sizes must be positive; an empty source
    /// gives zeros.
    static func areaAverageLinear(_ image: RasterImage, width outW: Int, height outH: Int) -> [Float] {
        precondition(outW > 0 && outH > 0)
        if image.isEmpty { return [Float](repeating: 0, count: outW * outH * 4) }
        let columns = BoxWeights(source: image.width, destination: outW)
        let rows = BoxWeights(source: image.height, destination: outH)
        let srcW = image.width

        // One source row at a time: its horizontal pass (outW premultiplied linear RGBA samples) is added into
        // every output row it overlaps. Only one horizontal row is kept, so a 3000 × 4000 picture needs no 30 MB
        // intermediate; a source row shared by two output rows is the last of one and the first of the next, so it
        // is computed once.
        var out = [Float](repeating: 0, count: outW * outH * 4)
        var horizontal = [Float](repeating: 0, count: outW * 4)
        let rowLength = outW * 4
        image.pixels.withUnsafeBufferPointer { src in
            horizontal.withUnsafeMutableBufferPointer { dst in
                out.withUnsafeMutableBufferPointer { out in
                    SRGB.toLinear.withUnsafeBufferPointer { toLinear in
                        columns.weights.withUnsafeBufferPointer { weights in
                            var cached = -1
                            for oy in 0..<outH {
                                let outBase = oy * rowLength
                                for k in 0..<rows.count[oy] {
                                    let y = rows.first[oy] + k
                                    if y != cached {
                                        cached = y
                                        let rowBase = y * srcW * 4
                                        for ox in 0..<outW {
                                            var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                                            var p = rowBase + columns.first[ox] * 4
                                            let offset = columns.offset[ox]
                                            for k in 0..<columns.count[ox] {
                                                let alpha = Float(src[p + 3]) * (1 / 255) * weights[offset + k]
                                                r += toLinear[Int(src[p])] * alpha
                                                g += toLinear[Int(src[p + 1])] * alpha
                                                b += toLinear[Int(src[p + 2])] * alpha
                                                a += alpha
                                                p += 4
                                            }
                                            let o = ox * 4
                                            dst[o] = r; dst[o + 1] = g; dst[o + 2] = b; dst[o + 3] = a
                                        }
                                    }
                                    let w = rows.weights[rows.offset[oy] + k]
                                    for i in 0..<rowLength { out[outBase + i] += dst[i] * w }
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}

/// For each destination index, the source indices it covers and their area weights (summing to 1).
struct BoxWeights {
    var first: [Int] = []
    var count: [Int] = []
    var offset: [Int] = []
    var weights: [Float] = []

    init(source: Int, destination: Int) {
        let scale = Double(source) / Double(destination)
        for d in 0..<destination {
            let start = Double(d) * scale, end = Double(d + 1) * scale
            let firstIndex = min(source - 1, Int(start.rounded(.down)))
            let lastIndex = max(firstIndex, min(source - 1, Int(end.rounded(.up)) - 1))
            first.append(firstIndex)
            count.append(lastIndex - firstIndex + 1)
            offset.append(weights.count)
            var total = 0.0
            var local: [Double] = []
            for s in firstIndex...lastIndex {
                let overlap = min(end, Double(s + 1)) - max(start, Double(s))
                local.append(max(0, overlap))
                total += max(0, overlap)
            }
            for w in local { weights.append(Float(total > 0 ? w / total : 1 / Double(local.count))) }
        }
    }
}

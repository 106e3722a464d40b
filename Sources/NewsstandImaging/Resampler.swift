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

        let columns = BoxWeights(source: image.width, destination: outW)
        let rows = BoxWeights(source: image.height, destination: outH)
        let toLinear = SRGB.toLinear
        let srcW = image.width

        // Horizontal pass: every source row → outW premultiplied linear RGBA samples.
        var horizontal = [Float](repeating: 0, count: image.height * outW * 4)
        image.pixels.withUnsafeBufferPointer { src in
            horizontal.withUnsafeMutableBufferPointer { dst in
                for y in 0..<image.height {
                    let rowBase = y * srcW * 4
                    for ox in 0..<outW {
                        var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                        let first = columns.first[ox]
                        for k in 0..<columns.count[ox] {
                            let w = columns.weights[columns.offset[ox] + k]
                            let p = rowBase + (first + k) * 4
                            let alpha = Float(src[p + 3]) / 255 * w
                            r += toLinear[Int(src[p])] * alpha
                            g += toLinear[Int(src[p + 1])] * alpha
                            b += toLinear[Int(src[p + 2])] * alpha
                            a += alpha
                        }
                        let o = (y * outW + ox) * 4
                        dst[o] = r; dst[o + 1] = g; dst[o + 2] = b; dst[o + 3] = a
                    }
                }
            }
        }

        // Vertical pass, then un-premultiply and encode.
        var out = [UInt8](repeating: 0, count: outW * outH * 4)
        var accumulator = [Float](repeating: 0, count: outW * 4)
        for oy in 0..<outH {
            for i in accumulator.indices { accumulator[i] = 0 }
            let first = rows.first[oy]
            for k in 0..<rows.count[oy] {
                let w = rows.weights[rows.offset[oy] + k]
                let base = (first + k) * outW * 4
                for i in 0..<(outW * 4) { accumulator[i] += horizontal[base + i] * w }
            }
            for ox in 0..<outW {
                let a = accumulator[ox * 4 + 3]
                let o = (oy * outW + ox) * 4
                if a > 1e-7 {
                    out[o] = SRGB.encodeByte(accumulator[ox * 4] / a)
                    out[o + 1] = SRGB.encodeByte(accumulator[ox * 4 + 1] / a)
                    out[o + 2] = SRGB.encodeByte(accumulator[ox * 4 + 2] / a)
                }
                out[o + 3] = UInt8(min(max(a * 255 + 0.5, 0), 255))
            }
        }
        return RasterImage(width: outW, height: outH, pixels: out)
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

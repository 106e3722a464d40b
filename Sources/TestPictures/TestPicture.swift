import NewsstandImaging

/// Pictures of known structure for measuring how covers are drawn, shared by the tests and the benchmark:
/// the cases that broke light-preserving art before (a white title band over a mid-tone body with a dark disc,
/// smooth gradients, a page of text), drawn in code so they need no files.
public enum TestPicture: String, CaseIterable, Sendable {
    /// A diagonal ramp from black (top left) to white (bottom right), sRGB values linear in position.
    case gradient
    /// A magazine-like cover: a white band with a black masthead over a body shading from grey 0.55 down to
    /// 0.35, with a near-black disc in the middle.
    case titleBand = "title-band"
    /// A white page of black text lines in a large type, with a margin.
    case text

    /// The picture at `width` × `height` pixels (opaque RGBA).
    public func image(width: Int = 480, height: Int = 640) -> RasterImage {
        var canvas = Canvas(width: width, height: height)
        switch self {
        case .gradient:
            canvas.fill { x, y in (Double(x) / Double(max(1, width - 1)) + Double(y) / Double(max(1, height - 1))) / 2 }
        case .titleBand:
            let band = height * 18 / 100
            canvas.fill { _, y in y < band ? 1 : 0.55 - 0.2 * Double(y - band) / Double(max(1, height - band)) }
            canvas.write("NEWS", left: width / 10, top: band / 6, scale: max(1, band * 2 / 3 / BitmapFont.height), value: 0)
            let centreX = Double(width) / 2, centreY = Double(height) * 0.6, radius = Double(min(width, height)) * 0.25
            canvas.fill { x, y, old in
                let dx = Double(x) + 0.5 - centreX, dy = Double(y) + 0.5 - centreY
                return dx * dx + dy * dy <= radius * radius ? 0.06 : old
            }
        case .text:
            canvas.fill { _, _ in 1 }
            let scale = max(1, width / 160), lineHeight = BitmapFont.height * scale * 3 / 2
            let words = "Tone first then shape a glyph carries its cell light"
            var top = height / 12, line = 0
            while top + BitmapFont.height * scale < height - height / 12 {
                let start = (line * 7) % words.count
                let text = String((words + " " + words).dropFirst(start).prefix((width - width / 5) / (BitmapFont.width * scale)))
                canvas.write(text, left: width / 10, top: top, scale: scale, value: 0)
                top += lineHeight
                line += 1
            }
        }
        return canvas.image
    }
}

/// A grey picture under construction: values 0...1 in sRGB, written out as opaque RGBA.
private struct Canvas {
    let width: Int, height: Int
    var values: [Double]

    init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        values = [Double](repeating: 0, count: self.width * self.height)
    }

    mutating func fill(_ value: (Int, Int) -> Double) {
        fill { x, y, _ in value(x, y) }
    }

    mutating func fill(_ value: (Int, Int, Double) -> Double) {
        for y in 0..<height {
            for x in 0..<width { values[y * width + x] = value(x, y, values[y * width + x]) }
        }
    }

    /// Draws `text` in `BitmapFont` scaled `scale` times, its top left corner at (`left`, `top`).
    mutating func write(_ text: String, left: Int, top: Int, scale: Int, value: Double) {
        for (index, character) in text.enumerated() {
            let glyph = BitmapFont.glyph(character)
            for gy in 0..<BitmapFont.height {
                for gx in 0..<BitmapFont.width where glyph[gy * BitmapFont.width + gx] != 0 {
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            let x = left + (index * BitmapFont.width + gx) * scale + dx, y = top + gy * scale + dy
                            if x >= 0, x < width, y >= 0, y < height { values[y * width + x] = value }
                        }
                    }
                }
            }
        }
    }

    var image: RasterImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for (index, value) in values.enumerated() {
            let byte = UInt8(min(max(value, 0), 1) * 255 + 0.5)
            pixels[index * 4] = byte
            pixels[index * 4 + 1] = byte
            pixels[index * 4 + 2] = byte
        }
        return RasterImage(width: width, height: height, pixels: pixels)
    }
}

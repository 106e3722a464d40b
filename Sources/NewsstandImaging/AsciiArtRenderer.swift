import Foundation

/// Draws a `RasterImage` as ASCII art for the terminal (the product's cover art).
///
/// How a picture becomes text:
/// 1. The image is fitted inside columns × rows keeping its aspect (cells are `cellAspect` times taller than wide),
///    centred, and padded with spaces.
/// 2. It is area-averaged in linear light to 4 × 8 sub-pixels per cell, composited over the background
///    (black for `.dark`, white for `.light`), and converted to lightness.
/// 3. Tone first, for the whole picture at once: levels are stretched gently between the 1st and 99th lightness
///    percentiles (at most 2× gain), and lightness 0...1 becomes wanted ink 0...the densest glyph's coverage
///    (inverted on `.light`, where ink is dark). So a white title band stays lighter than a mid-grey body, and a
///    gradient stays monotone: no cell is stretched on its own.
/// 4. Then shape: each cell takes the printable ASCII glyph whose coverage mask (`GlyphMasks`, from `BitmapFont`)
///    best fits the cell's wanted ink, first by its quarter-cell tone, then by its shape (see `GlyphMasks.nearest`):
///    ink on the bare terminal background in `ascii` mode. In `ascii-color` mode the cell's colour carries its
///    brightness, so the wanted ink is scaled to the brightest a cell gets and the glyph carries the structure.
///    Optionally (`ascii` mode) the difference between the cell's wanted mean and the chosen glyph's mean coverage
///    is diffused to its neighbours (Floyd–Steinberg).
public enum AsciiArtRenderer {
    /// Every glyph the ASCII modes can draw, from least to most ink (mean coverage in `BitmapFont`).
    public static var glyphsByCoverage: [Character] { GlyphMasks.standard.glyphs }

    /// The columns × rows the picture itself occupies inside the art (before centring), keeping its aspect.
    public static func fittedSize(imageWidth: Int, imageHeight: Int, options: AsciiArtOptions) -> (columns: Int, rows: Int) {
        guard options.columns > 0, options.rows > 0, imageWidth > 0, imageHeight > 0 else { return (0, 0) }
        let aspect = cellAspect(options)
        // Picture width in cells divided by its height in cells.
        let ratio = Double(imageWidth) / Double(imageHeight) * aspect
        var width = Double(options.columns)
        var height = width / ratio
        if height > Double(options.rows) {
            height = Double(options.rows)
            width = height * ratio
        }
        let columns = min(options.columns, max(1, Int(width.rounded())))
        let rows = min(options.rows, max(1, Int(height.rounded())))
        return (columns, rows)
    }

    /// The upper half block: foreground paints the top half of the cell, background the bottom half.
    public static let upperHalfBlock: Character = "\u{2580}"

    /// Fits the image inside columns×rows keeping its aspect (given cellAspect), centres it, pads with spaces.
    /// Zero or negative columns or rows give `TextArt.empty`. Padding cells are spaces in the default colours.
    ///
    /// - `ascii`: glyphs only, every colour nil.
    /// - `asciiColor`: the same glyphs; each picture cell's foreground is its linear-light average colour,
    ///   composited over the background (black for `.dark`, white for `.light`).
    /// - `blocks`: every picture cell is "▀" with the top pixel as foreground and the bottom pixel as background
    ///   (the picture sampled at 1 × 2 pixels per cell, composited over the background).
    public static func render(_ image: RasterImage, options: AsciiArtOptions) -> TextArt {
        let columns = options.columns, rows = options.rows
        guard columns > 0, rows > 0 else { return .empty }
        var grid = [Character](repeating: " ", count: columns * rows)
        var foreground = [RGBColor?](repeating: nil, count: columns * rows)
        var background = [RGBColor?](repeating: nil, count: columns * rows)

        let fit = fittedSize(imageWidth: image.width, imageHeight: image.height, options: options)
        if fit.columns > 0 && fit.rows > 0 {
            let left = (columns - fit.columns) / 2
            let top = (rows - fit.rows) / 2
            func place(_ row: Int, _ column: Int) -> Int { (top + row) * columns + left + column }
            switch options.mode {
            case .ascii, .asciiColor:
                let cells = renderCells(image, fit: fit, options: options, withColors: options.mode == .asciiColor)
                for row in 0..<fit.rows {
                    for column in 0..<fit.columns {
                        let index = place(row, column), source = row * fit.columns + column
                        grid[index] = cells.glyphs[source]
                        if !cells.colors.isEmpty { foreground[index] = cells.colors[source] }
                    }
                }
            case .blocks:
                let pixels = compositedColors(Resampler.areaAverage(image, width: fit.columns, height: fit.rows * 2),
                                              over: options.background)
                for row in 0..<fit.rows {
                    for column in 0..<fit.columns {
                        let index = place(row, column)
                        grid[index] = upperHalfBlock
                        foreground[index] = pixels[(row * 2) * fit.columns + column]
                        background[index] = pixels[(row * 2 + 1) * fit.columns + column]
                    }
                }
            }
        }

        let lines = (0..<rows).map { row in String(grid[(row * columns)..<((row + 1) * columns)]) }
        return TextArt(columns: columns, rows: rows, lines: lines, foreground: foreground, background: background)
    }

    /// Each pixel's colour composited over the terminal background (black for `.dark`, white for `.light`) in linear light.
    static func compositedColors(_ image: RasterImage, over background: TerminalBackground) -> [RGBColor] {
        let toLinear = SRGB.toLinear
        let backgroundLinear: Float = background == .dark ? 0 : 1
        var colors: [RGBColor] = []
        colors.reserveCapacity(image.width * image.height)
        image.pixels.withUnsafeBufferPointer { pixels in
            for p in stride(from: 0, to: pixels.count, by: 4) {
                let alpha = pixels[p + 3]
                if alpha == 255 {
                    colors.append(RGBColor(red: pixels[p], green: pixels[p + 1], blue: pixels[p + 2]))
                    continue
                }
                let a = Float(alpha) / 255
                func channel(_ value: UInt8) -> UInt8 {
                    SRGB.encodeByte(toLinear[Int(value)] * a + backgroundLinear * (1 - a))
                }
                colors.append(RGBColor(red: channel(pixels[p]), green: channel(pixels[p + 1]), blue: channel(pixels[p + 2])))
            }
        }
        return colors
    }

    private static func cellAspect(_ options: AsciiArtOptions) -> Double {
        options.cellAspect.isFinite && options.cellAspect > 0 ? options.cellAspect : 2.0
    }

    /// In `ascii-color` mode, cells whose mean wanted ink is below this stay blank.
    static let colorInkFloor: Float = 0.02

    private static func renderCells(_ image: RasterImage, fit: (columns: Int, rows: Int), options: AsciiArtOptions, withColors: Bool)
        -> (glyphs: [Character], colors: [RGBColor])
    {
        let sx = GlyphMasks.columns, sy = GlyphMasks.rows
        let width = fit.columns * sx, height = fit.rows * sy
        let samples = Resampler.areaAverageLinear(image, width: width, height: height)
        let dark = options.background == .dark
        let backgroundLinear: Float = dark ? 0 : 1

        // Lightness (sRGB-encoded luminance, 0...1) of each sub-pixel over the background.
        var lightness = [Float](repeating: 0, count: width * height)
        samples.withUnsafeBufferPointer { samples in
            lightness.withUnsafeMutableBufferPointer { lightness in
                for i in 0..<lightness.count {
                    let p = i * 4
                    // Premultiplied, so this is already luminance × alpha.
                    let y = 0.2126 * samples[p] + 0.7152 * samples[p + 1] + 0.0722 * samples[p + 2]
                    lightness[i] = SRGB.encode(y + backgroundLinear * (1 - samples[p + 3]))
                }
            }
        }
        let (low, high) = stretchLevels(lightness)
        let scale = 1 / max(high - low, 1e-6)
        // Wanted ink per sub-pixel, in the same units as mask coverage. The glyph's coverage is all that carries light
        // in `ascii`, so the picture's range maps onto the glyphs' range: white is the densest glyph, and every lighter
        // part of the picture stays lighter than every darker part (tone first).
        let inkRange = GlyphMasks.standard.means.last ?? 1
        lightness.withUnsafeMutableBufferPointer { values in
            for i in 0..<values.count {
                let stretched = min(max((values[i] - low) * scale, 0), 1)
                values[i] = (dark ? stretched : 1 - stretched) * inkRange
            }
        }
        let ink = lightness

        // Cell colours: linear-light average of the cell's sub-pixels, composited over the background.
        var colors: [RGBColor] = []
        if withColors {
            colors.reserveCapacity(fit.columns * fit.rows)
            let perCell = Float(sx * sy)
            for row in 0..<fit.rows {
                for column in 0..<fit.columns {
                    var sum = SIMD4<Float>(repeating: 0)
                    for y in 0..<sy {
                        let base = ((row * sy + y) * width + column * sx) * 4
                        for x in 0..<sx {
                            let p = base + x * 4
                            sum += SIMD4(samples[p], samples[p + 1], samples[p + 2], samples[p + 3])
                        }
                    }
                    let mean = sum / perCell
                    let under = backgroundLinear * (1 - mean.w)
                    colors.append(RGBColor(red: SRGB.encodeByte(mean.x + under), green: SRGB.encodeByte(mean.y + under),
                                           blue: SRGB.encodeByte(mean.z + under)))
                }
            }
        }

        // Glyph choice.
        let masks = GlyphMasks.standard
        var glyphs = [Character](repeating: " ", count: fit.columns * fit.rows)
        let dither = options.ditherErrors
        var carried = [Float](repeating: 0, count: dither ? fit.columns * fit.rows : 0)
        let count = Float(GlyphMasks.samplesPerCell)
        let maximumCoverage = masks.means.last ?? 1
        let cell = UnsafeMutablePointer<GlyphMasks.Row>.allocate(capacity: sy)
        defer { cell.deallocate() }
        ink.withUnsafeBufferPointer { ink in
            let rawInk = UnsafeRawPointer(ink.baseAddress!)
            for row in 0..<fit.rows {
                for column in 0..<fit.columns {
                    let index = row * fit.columns + column
                    let shift = GlyphMasks.Row(repeating: dither ? carried[index] : 0)
                    var sum = GlyphMasks.Row(repeating: 0)
                    for y in 0..<sy {
                        let offset = ((row * sy + y) * width + column * sx) * MemoryLayout<Float>.stride
                        cell[y] = rawInk.loadUnaligned(fromByteOffset: offset, as: GlyphMasks.Row.self) + shift
                        sum += cell[y]
                    }
                    let mean = sum.sum() / count
                    let chosen: Int
                    if withColors {
                        // The colour carries the mean: match the pattern scaled to the brightest a cell gets (the
                        // glyph's ink is drawn in the cell's average colour, so what shows is mean × mask).
                        if mean < colorInkFloor * inkRange {
                            chosen = 0
                        } else {
                            let scale = GlyphMasks.Row(repeating: inkRange / mean)
                            for y in 0..<sy { cell[y] *= scale }
                            chosen = masks.nearest(to: cell, mean: inkRange)
                        }
                    } else {
                        chosen = masks.nearest(to: cell, mean: mean)
                    }
                    glyphs[index] = masks.glyphs[chosen]
                    if dither, !withColors {
                        // Only what a glyph could have drawn is carried: a cell brighter than the densest glyph
                        // would otherwise push ever more error into its neighbours.
                        let error = min(max(mean, 0), maximumCoverage) - masks.means[chosen]
                        func spread(_ dx: Int, _ dy: Int, _ share: Float) {
                            let x = column + dx, y = row + dy
                            guard x >= 0, x < fit.columns, y < fit.rows else { return }
                            carried[y * fit.columns + x] += error * share
                        }
                        spread(1, 0, 7 / 16); spread(-1, 1, 3 / 16); spread(0, 1, 5 / 16); spread(1, 1, 1 / 16)
                    }
                }
            }
        }
        return (glyphs, colors)
    }

    /// Black and white points: the 1st and 99th lightness percentiles, widened to at least 0.5 apart (a gentle
    /// stretch: at most 2× gain, so a washed-out thumbnail gains contrast while a flat or low-contrast picture keeps
    /// about its own brightness, and a dark one stays dark).
    static func stretchLevels(_ values: [Float]) -> (Float, Float) {
        guard !values.isEmpty else { return (0, 1) }
        var histogram = [Int](repeating: 0, count: 256)
        for value in values { histogram[Int(min(max(value, 0), 1) * 255 + 0.5)] += 1 }
        func percentile(_ fraction: Double) -> Float {
            let target = Int((Double(values.count - 1) * fraction).rounded())
            var seen = 0
            for (bin, count) in histogram.enumerated() {
                seen += count
                if seen > target { return Float(bin) / 255 }
            }
            return 1
        }
        var low = percentile(0.01), high = percentile(0.99)
        let minimumSpan: Float = 0.5
        if high - low < minimumSpan {
            let centre = (low + high) / 2
            low = centre - minimumSpan / 2
            high = centre + minimumSpan / 2
            if low < 0 { high -= low; low = 0 }
            if high > 1 { low -= high - 1; high = 1 }
        }
        return (low, high)
    }
}

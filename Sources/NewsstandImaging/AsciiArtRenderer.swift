import Foundation

/// Draws a `RasterImage` as ASCII art for the terminal (the product's cover art).
///
/// How a picture becomes text:
/// 1. The image is fitted inside columns × rows keeping its aspect (cells are `cellAspect` times taller than wide),
///    centred, and padded with spaces.
/// 2. It is area-averaged in linear light to 4 × 8 sub-pixels per cell, composited over the background
///    (black for `.dark`, white for `.light`), and converted to lightness.
/// 3. Levels are stretched between the 1st and 99th lightness percentiles (at most 5× gain) so dim or washed-out
///    thumbnails stay recognisable.
/// 4. Cells with strong internal structure take the glyph whose shape best matches the sub-pixel pattern
///    (`| - _ / \` for strokes and edges); every other cell takes a glyph from `densityRamp` by mean ink,
///    optionally with Floyd–Steinberg error diffusion.
public enum AsciiArtRenderer {
    /// Glyphs from least to most ink; flat areas are drawn with these.
    public static let densityRamp: [Character] = Array(" .:-=+*#%@")

    /// The structural glyphs a cell may get instead of a ramp glyph.
    public static let shapeGlyphs: Set<Character> = ["|", "-", "_", "/", "\\"]

    /// Minimum sub-pixel standard deviation (ink units, 0...1) for a cell to be considered for a shape glyph.
    static let structureThreshold: Float = 0.15
    /// Minimum correlation between the cell and a glyph pattern for the shape glyph to win.
    static let correlationThreshold: Float = 0.72

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

    private static func renderCells(_ image: RasterImage, fit: (columns: Int, rows: Int), options: AsciiArtOptions, withColors: Bool)
        -> (glyphs: [Character], colors: [RGBColor])
    {
        let sx = GlyphShapes.columns, sy = GlyphShapes.rows
        let sampled = Resampler.areaAverage(image, width: fit.columns * sx, height: fit.rows * sy)
        let dark = options.background == .dark
        let backgroundLinear: Float = dark ? 0 : 1

        // Lightness (sRGB-encoded luminance, 0...1) of each sub-pixel over the background.
        let toLinear = SRGB.toLinear
        var lightness = [Float](repeating: 0, count: sampled.width * sampled.height)
        for i in 0..<lightness.count {
            let p = i * 4
            let alpha = Float(sampled.pixels[p + 3]) / 255
            let y = 0.2126 * toLinear[Int(sampled.pixels[p])] + 0.7152 * toLinear[Int(sampled.pixels[p + 1])]
                + 0.0722 * toLinear[Int(sampled.pixels[p + 2])]
            lightness[i] = SRGB.encode(y * alpha + backgroundLinear * (1 - alpha))
        }
        let (low, high) = stretchLevels(lightness)
        let span = max(high - low, 1e-6)
        let ink = lightness.map { value -> Float in
            let stretched = min(max((value - low) / span, 0), 1)
            return dark ? stretched : 1 - stretched
        }

        // Cell colours: linear-light average of the cell, composited over the background.
        let colors = withColors
            ? compositedColors(Resampler.areaAverage(sampled, width: fit.columns, height: fit.rows), over: options.background)
            : []

        // Glyph choice.
        let shapes = GlyphShapes.standard
        let ramp = densityRamp
        let levels = Float(ramp.count - 1)
        var glyphs = [Character](repeating: " ", count: fit.columns * fit.rows)
        var carried = [Float](repeating: 0, count: options.ditherErrors ? fit.columns * fit.rows : 0)
        var cell = [Float](repeating: 0, count: GlyphShapes.samplesPerCell)
        let rowStride = fit.columns * sx
        for row in 0..<fit.rows {
            for column in 0..<fit.columns {
                var mean: Float = 0
                for y in 0..<sy {
                    let base = (row * sy + y) * rowStride + column * sx
                    for x in 0..<sx {
                        let value = ink[base + x]
                        cell[y * sx + x] = value
                        mean += value
                    }
                }
                mean /= Float(cell.count)
                var squares: Float = 0
                for i in 0..<cell.count {
                    cell[i] -= mean
                    squares += cell[i] * cell[i]
                }
                let length = squares.squareRoot()
                let deviation = length / Float(cell.count).squareRoot()
                let index = row * fit.columns + column

                if deviation >= structureThreshold,
                   let match = cell.withUnsafeBufferPointer({ shapes.bestMatch(deviation: $0, length: length) }),
                   match.correlation >= correlationThreshold
                {
                    glyphs[index] = match.glyph
                    continue // shape cells absorb any diffused error
                }

                let wanted = mean + (options.ditherErrors ? carried[index] : 0)
                let level = Int(min(max(wanted * levels, 0), levels).rounded())
                glyphs[index] = ramp[level]
                if options.ditherErrors {
                    let error = wanted - Float(level) / levels
                    func spread(_ dx: Int, _ dy: Int, _ share: Float) {
                        let x = column + dx, y = row + dy
                        guard x >= 0, x < fit.columns, y < fit.rows else { return }
                        carried[y * fit.columns + x] += error * share
                    }
                    spread(1, 0, 7 / 16); spread(-1, 1, 3 / 16); spread(0, 1, 5 / 16); spread(1, 1, 1 / 16)
                }
            }
        }
        return (glyphs, colors)
    }

    /// Black and white points: the 1st and 99th lightness percentiles, widened to at least 0.2 apart
    /// (a 5× gain limit, so flat pictures are not turned into noise).
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
        let minimumSpan: Float = 0.2
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

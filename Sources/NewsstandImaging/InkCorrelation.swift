/// How faithfully text art carries a picture's light: Pearson's correlation between the ink the art puts on the
/// screen and the picture's lightness, both taken at the same places.
///
/// The art is re-drawn with `BitmapFont` (DejaVu Sans Mono, 8 × 16 pixels a cell) and each cell's ink coverage is
/// measured in its four quarters (2 × 2 samples a cell); the picture is area-averaged in linear light to the same
/// samples and converted to lightness (sRGB-encoded luminance, 0...1, over the terminal's background). On a dark
/// background ink is light, so ink should follow lightness; on a light one it should follow darkness.
///
/// `subCell` is r over every quarter, `perCell` r over whole cells (each the mean of its quarters). 1 means the
/// ink rises and falls exactly with the light; 0 means it has nothing to do with it. Unlike SSIM at the font's own
/// pixels, this sees whether a bright band stays brighter than a mid-grey body. NaN when either side is flat.
public struct InkCorrelation: Sendable, Equatable {
    public var subCell: Double
    public var perCell: Double

    /// Measures `lines` (one string per row, one character per cell) against `picture` stretched over the same
    /// cells. Characters outside printable ASCII count as blank.
    public init(art lines: [String], picture: RasterImage, background: TerminalBackground = .dark) {
        let rows = lines.count, columns = lines.map(\.count).max() ?? 0
        guard rows > 0, columns > 0, !picture.isEmpty else {
            self.init(subCell: .nan, perCell: .nan)
            return
        }
        let ink = Self.quarterCoverage(lines, columns: columns)
        let light = Self.quarterLightness(picture, columns: columns, rows: rows, background: background)
        let wanted = background == .dark ? light : light.map { 1 - $0 }
        self.init(subCell: Self.pearson(ink, wanted),
                  perCell: Self.pearson(Self.cellMeans(ink, columns: columns, rows: rows),
                                        Self.cellMeans(wanted, columns: columns, rows: rows)))
    }

    /// Measures art as a terminal showed it: `screen` holds exactly the text area, `columns` × `rows` cells. The
    /// screen's lightness and the picture's are each area-averaged in linear light to the same 2 × 2 samples a cell
    /// and sRGB-encoded, as `init(art:picture:background:)` takes the picture's; r between them. On a light
    /// background the screen's lightness is its paper, so it is compared with the picture's lightness as it is.
    public init(screen: RasterImage, columns: Int, rows: Int, picture: RasterImage, background: TerminalBackground = .dark) {
        guard rows > 0, columns > 0, !screen.isEmpty, !picture.isEmpty else {
            self.init(subCell: .nan, perCell: .nan)
            return
        }
        let shown = Self.quarterLightness(screen, columns: columns, rows: rows, background: background)
        let light = Self.quarterLightness(picture, columns: columns, rows: rows, background: background)
        self.init(subCell: Self.pearson(shown, light),
                  perCell: Self.pearson(Self.cellMeans(shown, columns: columns, rows: rows), Self.cellMeans(light, columns: columns, rows: rows)))
    }

    public init(subCell: Double, perCell: Double) {
        self.subCell = subCell
        self.perCell = perCell
    }

    /// Ink coverage (0...1) of each quarter of each cell, (columns × 2) × (rows × 2) samples, row-major.
    static func quarterCoverage(_ lines: [String], columns: Int) -> [Double] {
        let width = columns * 2, halfWidth = BitmapFont.width / 2, halfHeight = BitmapFont.height / 2
        var coverage = [Double](repeating: 0, count: width * lines.count * 2)
        let perQuarter = Double(halfWidth * halfHeight)
        for (row, line) in lines.enumerated() {
            for (column, character) in line.enumerated() where character != " " {
                guard let ascii = character.asciiValue, (0x21..<0x7F).contains(ascii) else { continue }
                let glyph = BitmapFont.glyph(character)
                for y in 0..<BitmapFont.height {
                    for x in 0..<BitmapFont.width where glyph[y * BitmapFont.width + x] != 0 {
                        coverage[(row * 2 + y / halfHeight) * width + column * 2 + x / halfWidth] += 1 / perQuarter
                    }
                }
            }
        }
        return coverage
    }

    /// Lightness (0...1) of the picture area-averaged to (columns × 2) × (rows × 2) samples, composited over black
    /// (dark background) or white (light background).
    static func quarterLightness(_ picture: RasterImage, columns: Int, rows: Int, background: TerminalBackground) -> [Double] {
        let samples = Resampler.areaAverageLinear(picture, width: columns * 2, height: rows * 2)
        let under: Float = background == .dark ? 0 : 1
        return stride(from: 0, to: samples.count, by: 4).map { p in
            let y = 0.2126 * samples[p] + 0.7152 * samples[p + 1] + 0.0722 * samples[p + 2] // premultiplied
            return Double(SRGB.encodeExact(min(max(y + under * (1 - samples[p + 3]), 0), 1)))
        }
    }

    /// The mean of each cell's four quarters.
    static func cellMeans(_ quarters: [Double], columns: Int, rows: Int) -> [Double] {
        let width = columns * 2
        return (0..<(columns * rows)).map { cell in
            let x = (cell % columns) * 2, y = (cell / columns) * 2
            return (quarters[y * width + x] + quarters[y * width + x + 1]
                    + quarters[(y + 1) * width + x] + quarters[(y + 1) * width + x + 1]) / 4
        }
    }

    /// Pearson's correlation of two equally long series; NaN when either does not vary.
    static func pearson(_ a: [Double], _ b: [Double]) -> Double {
        guard a.count == b.count, a.count > 1 else { return .nan }
        let n = Double(a.count)
        let meanA = a.reduce(0, +) / n, meanB = b.reduce(0, +) / n
        var covariance = 0.0, varianceA = 0.0, varianceB = 0.0
        for i in a.indices {
            let da = a[i] - meanA, db = b[i] - meanB
            covariance += da * db
            varianceA += da * da
            varianceB += db * db
        }
        guard varianceA > 1e-12, varianceB > 1e-12 else { return .nan }
        return covariance / (varianceA * varianceB).squareRoot()
    }
}

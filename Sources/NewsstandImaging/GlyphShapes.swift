/// The structural glyphs the ASCII renderer can choose for a cell, each with the sub-pixel patterns it stands for.
///
/// A cell is sampled into `columns` × `rows` sub-pixels in cell-normalised coordinates (u rightwards, v downwards,
/// both 0...1). Each glyph owns a few patterns: the glyph's own stroke (a thin line) and the step edges it is
/// used to draw (e.g. `|` for "dark left, bright right" and the reverse). Patterns are stored zero-mean and
/// unit-length, so matching a cell is a correlation of its mean-removed sub-pixels against each pattern.
struct GlyphShapes: Sendable {
    static let columns = 4
    static let rows = 8
    static var samplesPerCell: Int { columns * rows }

    struct Pattern: Sendable {
        let glyph: Character
        /// Zero-mean, unit-length sub-pixel pattern (row-major).
        let vector: [Float]
        /// A stroke only matches bright-on-dark; a step edge matches either way round.
        let matchesEitherPolarity: Bool
    }

    let patterns: [Pattern]

    static let standard = GlyphShapes()

    init() {
        typealias Shape = (Double, Double) -> Bool
        let diagonal = 2.0.squareRoot()
        let strokes: [(Character, Shape)] = [
            ("|", { u, _ in abs(u - 0.5) < 0.14 }),
            ("-", { _, v in abs(v - 0.5) < 0.07 }),
            ("_", { _, v in v > 0.88 }),
            ("/", { u, v in abs(u + v - 1) / diagonal < 0.1 }),
            ("\\", { u, v in abs(u - v) / diagonal < 0.1 }),
        ]
        let steps: [(Character, Shape)] = [
            ("|", { u, _ in u > 0.5 }),
            ("-", { _, v in v > 0.5 }),
            ("_", { _, v in v > 0.75 }),
            ("/", { u, v in u + v > 1 }),
            ("\\", { u, v in u > v }),
        ]
        patterns = strokes.compactMap { Self.pattern($0.0, $0.1, eitherPolarity: false) }
            + steps.compactMap { Self.pattern($0.0, $0.1, eitherPolarity: true) }
    }

    /// Rasterises `shape` at 4×4 samples per sub-pixel and normalises it.
    private static func pattern(_ glyph: Character, _ shape: (Double, Double) -> Bool, eitherPolarity: Bool) -> Pattern? {
        let oversample = 4
        var coverage = [Float](repeating: 0, count: samplesPerCell)
        for row in 0..<rows {
            for column in 0..<columns {
                var hits = 0
                for sy in 0..<oversample {
                    for sx in 0..<oversample {
                        let u = (Double(column) + (Double(sx) + 0.5) / Double(oversample)) / Double(columns)
                        let v = (Double(row) + (Double(sy) + 0.5) / Double(oversample)) / Double(rows)
                        if shape(u, v) { hits += 1 }
                    }
                }
                coverage[row * columns + column] = Float(hits) / Float(oversample * oversample)
            }
        }
        let mean = coverage.reduce(0, +) / Float(coverage.count)
        let centred = coverage.map { $0 - mean }
        let length = centred.reduce(0) { $0 + $1 * $1 }.squareRoot()
        guard length > 1e-6 else { return nil }
        return Pattern(glyph: glyph, vector: centred.map { $0 / length }, matchesEitherPolarity: eitherPolarity)
    }

    /// The best-matching structural glyph for a cell's mean-removed sub-pixels (`deviation`, with Euclidean
    /// length `length`), and its correlation in -1...1.
    func bestMatch(deviation: UnsafeBufferPointer<Float>, length: Float) -> (glyph: Character, correlation: Float)? {
        guard length > 1e-6 else { return nil }
        var best: (Character, Float)? = nil
        for pattern in patterns {
            var dot: Float = 0
            for i in 0..<pattern.vector.count { dot += pattern.vector[i] * deviation[i] }
            var correlation = dot / length
            if pattern.matchesEitherPolarity { correlation = abs(correlation) }
            if correlation > (best?.1 ?? -2) { best = (pattern.glyph, correlation) }
        }
        return best
    }
}

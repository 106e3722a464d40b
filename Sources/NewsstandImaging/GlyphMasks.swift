/// The glyphs the ASCII renderer can choose from, as coverage masks: every printable ASCII character of
/// `BitmapFont` (8 × 16 pixels) area-averaged to `columns` × `rows` sub-pixels (2 × 2 font pixels each), so each
/// mask value is the fraction of that sub-pixel the glyph's ink covers (0, ¼, ½, ¾ or 1).
///
/// A cell is drawn with the glyph whose mask is nearest (least squares) to the cell's wanted ink at the same
/// sub-pixels. The table is built once; glyphs are sorted by mean coverage so a search can start at the cell's
/// mean and stop as soon as the difference in means alone rules out the rest (the squared error of a cell is at
/// least `samplesPerCell` × (difference in means)²).
struct GlyphMasks: Sendable {
    static let columns = 4
    static let rows = 8
    static let samplesPerCell = 32
    typealias Vector = SIMD32<Float>

    /// Glyphs in order of mean coverage (space first); ties keep code-point order.
    let glyphs: [Character]
    /// Each glyph's coverage at the sub-pixels, row-major.
    let masks: [Vector]
    /// Mean coverage of each mask (0...1).
    let means: [Float]
    /// Sum of the squared coverages of each mask.
    let squaredNorms: [Float]
    /// Each mask minus its mean, scaled to unit length (zero for space), for the structure term.
    let shapes: [Vector]

    /// Weight of the structure term (see `nearest`). Between 0 and 6 the benchmark's SSIM moves by less than
    /// 0.003; from about 2 up, edges and strokes reliably take glyphs of their shape (`L`, `F`, `/`, `\\`, `|`).
    static let structureWeight: Float = 4
    /// Weight of the extra mean term (see `nearest`). Plain squared error charges every glyph for its own
    /// unevenness, so flat areas would get too little ink; 1 keeps tones closer and raised the benchmark's 4×4 SSIM
    /// from 0.188 to 0.197 (40×30) and 0.133 to 0.144 (120×60), costing 0.002 at full resolution.
    static let meanWeight: Float = 1

    static let standard = GlyphMasks()

    init() {
        let fontColumns = BitmapFont.width / Self.columns, fontRows = BitmapFont.height / Self.rows
        var entries: [(glyph: Character, mask: Vector, mean: Float)] = []
        for code in UInt8(0x20)..<UInt8(0x7F) {
            let glyph = Character(Unicode.Scalar(code))
            let bitmap = glyph == "|" ? Self.centredBar : BitmapFont.glyph(glyph)
            var mask = Vector(repeating: 0)
            for row in 0..<Self.rows {
                for column in 0..<Self.columns {
                    var ink = 0
                    for y in 0..<fontRows {
                        for x in 0..<fontColumns {
                            ink += Int(bitmap[(row * fontRows + y) * BitmapFont.width + column * fontColumns + x])
                        }
                    }
                    mask[row * Self.columns + column] = Float(ink) / Float(fontColumns * fontRows)
                }
            }
            entries.append((glyph, mask, mask.sum() / Float(Self.samplesPerCell)))
        }
        entries.sort { $0.mean < $1.mean } // stable: ties stay in code-point order
        glyphs = entries.map(\.glyph)
        masks = entries.map(\.mask)
        means = entries.map(\.mean)
        squaredNorms = entries.map { ($0.mask * $0.mask).sum() }
        shapes = entries.map { entry in
            let centred = entry.mask - Vector(repeating: entry.mean)
            let length = (centred * centred).sum().squareRoot()
            return length > 1e-6 ? centred / length : Vector(repeating: 0)
        }
    }

    /// `|` as terminals draw it, centred in the cell: two pixels wide in an 8-pixel cell. The 8 × 16 bitmap had to
    /// put its one-pixel stroke left of the centre, which would make `|` lose pure vertical strokes to `{`.
    static let centredBar: [UInt8] = (0..<BitmapFont.height).flatMap { row in
        (0..<BitmapFont.width).map { column in UInt8((1...13).contains(row) && (3...4).contains(column) ? 1 : 0) }
    }

    /// The index (into `glyphs`) of the best glyph for `target` (wanted ink per sub-pixel), given `target`'s mean.
    ///
    /// The cost is the squared error between target and mask, plus `structureWeight` times the part of the target's
    /// own variation (about its mean) that the glyph's shape does not explain: ‖t − t̄‖² (1 − ρ₊²), with ρ₊ the
    /// correlation between target and mask, clamped at 0, plus `meanWeight` × `samplesPerCell` × (difference in
    /// means)². Plain squared error favours whichever glyph has about the right amount of ink; the structure term
    /// makes edges and strokes take glyphs of their shape. Every term is non-negative and the squared error alone
    /// is at least `samplesPerCell` × (difference in means)², which gives the early stop. Ties go to the sparser
    /// glyph.
    func nearest(to target: Vector, mean: Float) -> Int {
        let n = Float(Self.samplesPerCell)
        let weight = Self.structureWeight, meanWeight = Self.meanWeight
        let targetNorm = (target * target).sum()
        let centredNorm = max(0, targetNorm - n * mean * mean)
        return means.withUnsafeBufferPointer { means in
            masks.withUnsafeBufferPointer { masks in
                shapes.withUnsafeBufferPointer { shapes in
                    squaredNorms.withUnsafeBufferPointer { norms in
                        func cost(_ index: Int) -> Float {
                            let squaredError = targetNorm + norms[index] - 2 * (target * masks[index]).sum()
                            let explained = max(0, (target * shapes[index]).sum())
                            let gap = means[index] - mean
                            return squaredError + weight * max(0, centredNorm - explained * explained) + meanWeight * n * gap * gap
                        }
                        // Start at the first glyph whose mean is not below the target's.
                        var low = 0, high = means.count
                        while low < high {
                            let middle = (low + high) / 2
                            if means[middle] < mean { low = middle + 1 } else { high = middle }
                        }
                        let start = min(low, means.count - 1)
                        var best = start
                        var bestCost = cost(start)
                        func consider(_ index: Int) -> Bool {
                            let gap = means[index] - mean
                            if (1 + meanWeight) * n * gap * gap >= bestCost { return false }
                            let c = cost(index)
                            if c < bestCost || (c == bestCost && index < best) {
                                bestCost = c
                                best = index
                            }
                            return true
                        }
                        var index = start - 1
                        while index >= 0, consider(index) { index -= 1 }
                        index = start + 1
                        while index < means.count, consider(index) { index += 1 }
                        return best
                    }
                }
            }
        }
    }

    // MARK: Describing glyphs (tests and documentation)

    /// The glyph a fully inked cell takes: the most coverage of any glyph.
    var densest: Character { glyphs[nearest(to: Vector(repeating: 1), mean: 1)] }

    /// Mean coverage of `glyph`, or nil if it is not one of the glyphs.
    func coverage(of glyph: Character) -> Float? { glyphs.firstIndex(of: glyph).map { means[$0] } }

    /// The ink-weighted centre of `glyph` in sub-pixels (x in 0...3, y in 0...7; the cell centre is 1.5, 3.5).
    func centroid(of glyph: Character) -> (x: Float, y: Float)? {
        guard let index = glyphs.firstIndex(of: glyph) else { return nil }
        let mask = masks[index], total = mask.sum()
        guard total > 0 else { return nil }
        var x: Float = 0, y: Float = 0
        for i in 0..<Self.samplesPerCell {
            x += mask[i] * Float(i % Self.columns)
            y += mask[i] * Float(i / Self.columns)
        }
        return (x / total, y / total)
    }

    /// How many sub-pixel rows of `glyph` have at least half a sub-pixel of ink within `columns`.
    func inkedRows(of glyph: Character, columns: Range<Int>) -> Int {
        guard let index = glyphs.firstIndex(of: glyph) else { return 0 }
        return (0..<Self.rows).filter { row in columns.reduce(0) { $0 + masks[index][row * Self.columns + $1] } >= 0.5 }.count
    }
}

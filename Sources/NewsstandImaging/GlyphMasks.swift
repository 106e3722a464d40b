/// The glyphs the ASCII renderer can choose from, as coverage masks: every printable ASCII character but the lowercase letters, of
/// `BitmapFont` (8 × 16 pixels) area-averaged to `columns` × `rows` sub-pixels (2 × 2 font pixels each), so each
/// mask value is the fraction of that sub-pixel the glyph's ink covers (0, ¼, ½, ¾ or 1).
///
/// A cell is drawn with the glyph whose mask best fits the cell's wanted ink at the same sub-pixels (see `nearest`).
/// The table is built once. A cell is 8 rows of 4 sub-pixels, and each row is one `SIMD4<Float>`, so matching a
/// glyph is 16 four-wide multiply-adds. Glyphs are sorted by mean coverage so a search can start at the cell's
/// mean and stop as soon as the difference in means alone rules out the rest.
struct GlyphMasks: Sendable {
    static let columns = 4
    static let rows = 8
    static let samplesPerCell = 32
    /// One sub-pixel row of a cell or mask.
    typealias Row = SIMD4<Float>

    /// Glyphs in order of mean coverage (space first); ties keep code-point order.
    let glyphs: [Character]
    /// Each glyph's coverage, `rows` rows per glyph (glyph `i` is `masks[i * rows ..< (i + 1) * rows]`).
    let masks: [Row]
    /// Each mask minus its mean, scaled to unit length (zero for space), for the structure term; laid out like `masks`.
    let shapes: [Row]
    /// Mean coverage of each mask (0...1).
    let means: [Float]
    /// Sum of the squared coverages of each mask.
    let squaredNorms: [Float]

    /// Weight of the structure term (see `nearest`). Between 0 and 6 the benchmark's SSIM moves by less than
    /// 0.003; from about 2 up, edges and strokes reliably take glyphs of their shape (`L`, `F`, `/`, `\\`, `|`).
    static let structureWeight: Float = 4
    /// Weight of the extra mean term (see `nearest`). Plain squared error charges every glyph for its own
    /// unevenness, so flat areas would get too little ink; 1 keeps tones closer and raised the benchmark's 4×4 SSIM
    /// from 0.188 to 0.197 (40×30) and 0.133 to 0.144 (120×60), costing 0.002 at full resolution.
    static let meanWeight: Float = 1

    static let standard = GlyphMasks()

    /// Lowercase letters are left out: matched on shape alone they fill bright areas with runs of `d` and `k`,
    /// which read as words rather than tone. Symbols, digits and capitals keep the classic look (`@`, `#`, `M`).
    static let leftOut = Set("abcdefghijklmnopqrstuvwxyz")

    init() {
        let fontColumns = BitmapFont.width / Self.columns, fontRows = BitmapFont.height / Self.rows
        var entries: [(glyph: Character, mask: [Float], mean: Float)] = []
        for code in UInt8(0x20)..<UInt8(0x7F) where !Self.leftOut.contains(Character(Unicode.Scalar(code))) {
            let glyph = Character(Unicode.Scalar(code))
            let bitmap = glyph == "|" ? Self.centredBar : BitmapFont.glyph(glyph)
            var mask = [Float](repeating: 0, count: Self.samplesPerCell)
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
            entries.append((glyph, mask, mask.reduce(0, +) / Float(Self.samplesPerCell)))
        }
        entries.sort { $0.mean < $1.mean } // stable: ties stay in code-point order
        func rows(_ values: [Float]) -> [Row] {
            (0..<Self.rows).map { Row(values[($0 * Self.columns)..<(($0 + 1) * Self.columns)]) }
        }
        glyphs = entries.map(\.glyph)
        masks = entries.flatMap { rows($0.mask) }
        means = entries.map(\.mean)
        squaredNorms = entries.map { $0.mask.reduce(0) { $0 + $1 * $1 } }
        shapes = entries.flatMap { entry -> [Row] in
            let centred = entry.mask.map { $0 - entry.mean }
            let length = centred.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return rows(length > 1e-6 ? centred.map { $0 / length } : centred.map { _ in 0 })
        }
    }

    /// `|` as terminals draw it, centred in the cell: two pixels wide in an 8-pixel cell. The 8 × 16 bitmap had to
    /// put its one-pixel stroke left of the centre, which would make `|` lose pure vertical strokes to `{`.
    static let centredBar: [UInt8] = (0..<BitmapFont.height).flatMap { row in
        (0..<BitmapFont.width).map { column in UInt8((1...13).contains(row) && (3...4).contains(column) ? 1 : 0) }
    }

    /// The index (into `glyphs`) of the best glyph for `target`, the wanted ink at the cell's sub-pixels as `rows`
    /// rows, whose mean is `mean`.
    ///
    /// The cost is the squared error between target and mask, plus `structureWeight` times the part of the target's
    /// own variation (about its mean) that the glyph's shape does not explain: ‖t − t̄‖² (1 − ρ₊²), with ρ₊ the
    /// correlation between target and mask, clamped at 0, plus `meanWeight` × `samplesPerCell` × (difference in
    /// means)². Plain squared error favours whichever glyph has about the right amount of ink; the structure term
    /// makes edges and strokes take glyphs of their shape. Every term is non-negative and the squared error alone
    /// is at least `samplesPerCell` × (difference in means)², which gives the early stop. Ties go to the sparser
    /// glyph.
    func nearest(to target: UnsafePointer<Row>, mean: Float) -> Int {
        let n = Float(Self.samplesPerCell)
        let meanWeight = Self.meanWeight
        var squares = target[0] * target[0]
        for row in 1..<Self.rows { squares += target[row] * target[row] }
        let targetNorm = squares.sum()
        let centredNorm = max(0, targetNorm - n * mean * mean)
        return means.withUnsafeBufferPointer { means in
            masks.withUnsafeBufferPointer { masks in
                shapes.withUnsafeBufferPointer { shapes in
                    squaredNorms.withUnsafeBufferPointer { norms in
                        @inline(__always) func cost(_ index: Int) -> Float {
                            let (dot, explained) = Self.products(target, masks.baseAddress! + index * Self.rows,
                                                                 shapes.baseAddress! + index * Self.rows)
                            return Self.cost(targetNorm: targetNorm, centredNorm: centredNorm, mean: mean, dot: dot,
                                             explained: explained, maskNorm: norms[index], maskMean: means[index])
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
                        var index = start - 1
                        while index >= 0 {
                            let gap = means[index] - mean
                            if (1 + meanWeight) * n * gap * gap >= bestCost { break }
                            let c = cost(index)
                            if c <= bestCost { bestCost = c; best = index } // lower index: sparser wins ties
                            index -= 1
                        }
                        index = start + 1
                        while index < means.count {
                            let gap = means[index] - mean
                            if (1 + meanWeight) * n * gap * gap >= bestCost { break }
                            let c = cost(index)
                            if c < bestCost { bestCost = c; best = index }
                            index += 1
                        }
                        return best
                    }
                }
            }
        }
    }

    /// target · mask and target · shape.
    @inline(__always)
    static func products(_ target: UnsafePointer<Row>, _ mask: UnsafePointer<Row>, _ shape: UnsafePointer<Row>) -> (Float, Float) {
        var dot = target[0] * mask[0], explained = target[0] * shape[0]
        dot += target[1] * mask[1]; explained += target[1] * shape[1]
        dot += target[2] * mask[2]; explained += target[2] * shape[2]
        dot += target[3] * mask[3]; explained += target[3] * shape[3]
        dot += target[4] * mask[4]; explained += target[4] * shape[4]
        dot += target[5] * mask[5]; explained += target[5] * shape[5]
        dot += target[6] * mask[6]; explained += target[6] * shape[6]
        dot += target[7] * mask[7]; explained += target[7] * shape[7]
        return ((dot[0] + dot[1]) + (dot[2] + dot[3]), (explained[0] + explained[1]) + (explained[2] + explained[3]))
    }

    /// The cost `nearest` minimises, from the target's squared length and centred squared length, its mean, and its
    /// dot products with the glyph's mask and unit shape.
    @inline(__always)
    static func cost(targetNorm: Float, centredNorm: Float, mean: Float, dot: Float, explained: Float,
                     maskNorm: Float, maskMean: Float) -> Float {
        let squaredError = targetNorm + maskNorm - 2 * dot
        let along = max(0, explained)
        let unexplained = max(0, centredNorm - along * along)
        let gap = maskMean - mean
        return squaredError + structureWeight * unexplained + meanWeight * Float(samplesPerCell) * gap * gap
    }

    // MARK: Conveniences for tests (32 values, row-major)

    /// `nearest` for a cell given as `samplesPerCell` values, row-major.
    func nearest(to values: [Float]) -> Int {
        precondition(values.count == Self.samplesPerCell)
        let rows = Self.rows(values)
        return rows.withUnsafeBufferPointer { nearest(to: $0.baseAddress!, mean: values.reduce(0, +) / Float(Self.samplesPerCell)) }
    }

    /// The cost of drawing the cell `values` with glyph `index` (what `nearest` minimises), computed on its own.
    func cost(_ index: Int, _ values: [Float]) -> Float {
        let n = Float(Self.samplesPerCell)
        let mean = values.reduce(0, +) / n, targetNorm = values.reduce(0) { $0 + $1 * $1 }
        let rows = Self.rows(values)
        let (dot, explained) = rows.withUnsafeBufferPointer { target in
            masks.withUnsafeBufferPointer { masks in
                shapes.withUnsafeBufferPointer { shapes in
                    Self.products(target.baseAddress!, masks.baseAddress! + index * Self.rows, shapes.baseAddress! + index * Self.rows)
                }
            }
        }
        return Self.cost(targetNorm: targetNorm, centredNorm: max(0, targetNorm - n * mean * mean), mean: mean, dot: dot,
                         explained: explained, maskNorm: squaredNorms[index], maskMean: means[index])
    }

    private static func rows(_ values: [Float]) -> [Row] {
        (0..<rows).map { Row(values[($0 * columns)..<(($0 + 1) * columns)]) }
    }

    /// The mask of glyph `index`, `samplesPerCell` values, row-major.
    func mask(_ index: Int) -> [Float] {
        masks[(index * Self.rows)..<((index + 1) * Self.rows)].flatMap { row in (0..<Self.columns).map { row[$0] } }
    }

    // MARK: Describing glyphs (tests and documentation)

    /// The glyph a fully inked cell takes: the most coverage of any glyph.
    var densest: Character { glyphs[nearest(to: [Float](repeating: 1, count: Self.samplesPerCell))] }

    /// Mean coverage of `glyph`, or nil if it is not one of the glyphs.
    func coverage(of glyph: Character) -> Float? { glyphs.firstIndex(of: glyph).map { means[$0] } }

    /// The ink-weighted centre of `glyph` in sub-pixels (x in 0...3, y in 0...7; the cell centre is 1.5, 3.5).
    func centroid(of glyph: Character) -> (x: Float, y: Float)? {
        guard let index = glyphs.firstIndex(of: glyph) else { return nil }
        let mask = mask(index), total = mask.reduce(0, +)
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
        let mask = mask(index)
        return (0..<Self.rows).filter { row in columns.reduce(0) { $0 + mask[row * Self.columns + $1] } >= 0.5 }.count
    }
}

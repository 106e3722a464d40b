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
    /// Each mask minus its mean, scaled to unit length (zero for space), for the shape term; laid out like `masks`.
    let shapes: [Row]
    /// Each glyph's mean coverage in the four quarters of its cell (top left, top right, bottom left, bottom right).
    let quarters: [Row]
    /// Mean coverage of each mask (0...1).
    let means: [Float]

    /// Weight of the shape term (see `nearest`) against the tone term. Below 1, thin strokes lose `|` to `(`; above 1
    /// shape starts to cost tone (at 2 the text cover's quarter-cell correlation falls from 0.79 to 0.71, 40×30).
    static let shapeWeight: Float = 1

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
        quarters = entries.map { Self.quarterMeans(rows($0.mask)) }
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

    /// The mean of each quarter of a cell given as `rows` rows (top left, top right, bottom left, bottom right).
    @inline(__always)
    static func quarterMeans(_ cell: UnsafePointer<Row>) -> Row {
        let top = cell[0] + cell[1] + cell[2] + cell[3], bottom = cell[4] + cell[5] + cell[6] + cell[7]
        return Row(top[0] + top[1], top[2] + top[3], bottom[0] + bottom[1], bottom[2] + bottom[3]) / 8
    }

    static func quarterMeans(_ cell: [Row]) -> Row {
        cell.withUnsafeBufferPointer { quarterMeans($0.baseAddress!) }
    }

    /// The index (into `glyphs`) of the best glyph for `target`, the wanted ink at the cell's sub-pixels as `rows`
    /// rows, whose mean is `mean`.
    ///
    /// Tone first, then shape. The tone term is the squared error between the target's and the glyph's quarter
    /// means (what a reader sees of a cell from reading distance: its brightness and which half or corner is lit),
    /// counted over the 8 sub-pixels of each quarter. Plain squared error over every sub-pixel would charge each
    /// glyph for its own unevenness and leave mid-tones too dark (a flat 0.16 would be drawn blank). The shape term
    /// is `shapeWeight` times the part of the target's own variation about its mean that the glyph's shape does not
    /// explain: ‖t − t̄‖² (1 − ρ₊²), with ρ₊ the correlation between target and mask, clamped at 0; it is 0 for a
    /// flat target, so flat areas take the glyph of the right density with the evenest quarters. The tone term is at
    /// least `samplesPerCell` × (difference in means)², which gives the early stop. Ties go to the sparser glyph.
    func nearest(to target: UnsafePointer<Row>, mean: Float) -> Int {
        let n = Float(Self.samplesPerCell)
        var squares = target[0] * target[0]
        for row in 1..<Self.rows { squares += target[row] * target[row] }
        let centredNorm = max(0, squares.sum() - n * mean * mean)
        let targetQuarters = Self.quarterMeans(target)
        return means.withUnsafeBufferPointer { means in
            quarters.withUnsafeBufferPointer { quarters in
                shapes.withUnsafeBufferPointer { shapes in
                    @inline(__always) func cost(_ index: Int) -> Float {
                        Self.cost(targetQuarters: targetQuarters, centredNorm: centredNorm, glyphQuarters: quarters[index],
                                  explained: Self.explained(target, shapes.baseAddress! + index * Self.rows))
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
                        if n * gap * gap >= bestCost { break }
                        let c = cost(index)
                        if c <= bestCost { bestCost = c; best = index } // lower index: sparser wins ties
                        index -= 1
                    }
                    index = start + 1
                    while index < means.count {
                        let gap = means[index] - mean
                        if n * gap * gap >= bestCost { break }
                        let c = cost(index)
                        if c < bestCost { bestCost = c; best = index }
                        index += 1
                    }
                    return best
                }
            }
        }
    }

    /// target · shape: how much of the target's variation the glyph's unit shape explains.
    @inline(__always)
    static func explained(_ target: UnsafePointer<Row>, _ shape: UnsafePointer<Row>) -> Float {
        var sum = target[0] * shape[0]
        sum += target[1] * shape[1]; sum += target[2] * shape[2]; sum += target[3] * shape[3]
        sum += target[4] * shape[4]; sum += target[5] * shape[5]; sum += target[6] * shape[6]
        sum += target[7] * shape[7]
        return (sum[0] + sum[1]) + (sum[2] + sum[3])
    }

    /// The cost `nearest` minimises, from the target's and glyph's quarter means, the target's centred squared
    /// length, and its dot product with the glyph's unit shape.
    @inline(__always)
    static func cost(targetQuarters: Row, centredNorm: Float, glyphQuarters: Row, explained: Float) -> Float {
        let difference = targetQuarters - glyphQuarters
        let tone = Float(samplesPerCell / 4) * (difference * difference).sum()
        let along = max(0, explained)
        return tone + shapeWeight * max(0, centredNorm - along * along)
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
        let explained = rows.withUnsafeBufferPointer { target in
            shapes.withUnsafeBufferPointer { Self.explained(target.baseAddress!, $0.baseAddress! + index * Self.rows) }
        }
        return Self.cost(targetQuarters: Self.quarterMeans(rows), centredNorm: max(0, targetNorm - n * mean * mean),
                         glyphQuarters: quarters[index], explained: explained)
    }

    private static func rows(_ values: [Float]) -> [Row] {
        (0..<rows).map { Row(values[($0 * columns)..<(($0 + 1) * columns)]) }
    }

    /// The mask of glyph `index`, `samplesPerCell` values, row-major.
    func mask(_ index: Int) -> [Float] {
        masks[(index * Self.rows)..<((index + 1) * Self.rows)].flatMap { row in (0..<Self.columns).map { row[$0] } }
    }

    // MARK: Describing glyphs (tests and documentation)

    /// The glyph the brightest flat cell takes (wanted ink the densest glyph's coverage everywhere).
    var densest: Character { glyphs[nearest(to: [Float](repeating: means.last ?? 1, count: Self.samplesPerCell))] }

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

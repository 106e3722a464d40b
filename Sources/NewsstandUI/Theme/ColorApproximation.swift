/// Nearest colours for terminals with fewer colours than a theme asks for.
public enum ColorApproximation {
    private static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The nearest of the 256 indexed colours (the 6×6×6 cube or the grey ramp).
    public static func indexed(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        func level(_ value: UInt8) -> Int {
            cubeLevels.indices.min { abs(cubeLevels[$0] - Int(value)) < abs(cubeLevels[$1] - Int(value)) }!
        }
        let (r, g, b) = (level(red), level(green), level(blue))
        let cube = 16 + 36 * r + 6 * g + b
        let cubeError = distance((cubeLevels[r], cubeLevels[g], cubeLevels[b]), (Int(red), Int(green), Int(blue)))
        let average = (Int(red) + Int(green) + Int(blue)) / 3
        let grey = min(23, max(0, (average - 3) / 10))
        let greyValue = 8 + grey * 10
        let greyError = distance((greyValue, greyValue, greyValue), (Int(red), Int(green), Int(blue)))
        return UInt8(greyError < cubeError ? 232 + grey : cube)
    }

    /// The RGB value of an indexed colour.
    public static func rgb(forIndexed index: UInt8) -> (Int, Int, Int) {
        let value = Int(index)
        if value < 16 {
            let basic = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
                         (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255)]
            return basic[value]
        }
        if value >= 232 { let grey = 8 + (value - 232) * 10; return (grey, grey, grey) }
        let cube = value - 16
        return (cubeLevels[cube / 36], cubeLevels[cube / 6 % 6], cubeLevels[cube % 6])
    }

    /// The nearest of the first `colors` basic colours (8 or 16).
    public static func basic(forIndexed index: UInt8, colors: Int) -> UInt8 {
        let target = rgb(forIndexed: index)
        let count = colors >= 16 ? 16 : 8
        return UInt8((0..<count).min { distance(rgb(forIndexed: UInt8($0)), target) < distance(rgb(forIndexed: UInt8($1)), target) }!)
    }

    private static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let (dr, dg, db) = (a.0 - b.0, a.1 - b.1, a.2 - b.2)
        return dr * dr + dg * dg + db * db
    }
}

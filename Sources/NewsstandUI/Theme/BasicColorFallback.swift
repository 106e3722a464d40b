import NewsstandImaging

/// How a style is drawn on a terminal of 8 or 16 colours, readable: each colour becomes one of the basic colours
/// (as xterm's default palette shows them), the background the nearest one, and the foreground the nearest one that
/// keeps the contrast rule (`minimumContrast`) against that background. Bold is kept unless it breaks the rule: xterm
/// (`boldColors`, on by default) shows bold text in colours 0–7 as the bright colours 8–15, so bold black on white
/// would be grey. Where the background is the terminal's own (`default`), which may be light or dark, the foreground
/// is only the nearest colour. Nearest colours alone drew paper's bold black titles on cream as xterm's grey on white (3.2:1).
public enum BasicColorFallback {
    /// The least contrast a letter needs (WCAG's 4.5:1; decorations need 3:1, so they meet it too).
    public static let minimumContrast = 4.5

    /// `style` as drawn with `colors` colours (8, or 16 and more): its colours `.basic` or `.default`, its
    /// attributes without bold when bold would make it unreadable.
    public static func drawn(_ style: TextStyle, colors: Int) -> TextStyle {
        let count = colors >= 16 ? 16 : 8
        var drawn = style
        drawn.background = nearest(style.background, count: count)
        guard style.foreground != .default, case .basic(let paperIndex) = drawn.background else {
            drawn.foreground = nearest(style.foreground, count: count)
            return drawn
        }
        let target = rgb(style.foreground)
        let paper = rgb(.basic(paperIndex))
        let dim = style.attributes.contains(.dim)
        /// What a foreground colour index shows as, bold or not, and its contrast.
        func shown(_ index: UInt8, bold: Bool) -> (color: RGBColor, contrast: Double) {
            var ink = rgb(.basic(bold && index < 8 ? index + 8 : index))
            if dim { ink = halfway(ink, paper) }
            return (ink, ContrastRatio.between(ink, paper))
        }
        let bold = style.attributes.contains(.bold)
        for keepsBold in bold ? [true, false] : [false] {
            let readable = (0..<UInt8(count)).filter { shown($0, bold: keepsBold).contrast >= minimumContrast }
            // Nearest as shown; between colours shown alike (bold 7 and 15 are both bright white in xterm), the one
            // nearest in itself, for terminals that do not brighten bold.
            func key(_ index: UInt8) -> (Int, Int) { (distance(shown(index, bold: keepsBold).color, target), distance(rgb(.basic(index)), target)) }
            if let best = readable.min(by: { key($0) < key($1) }) {
                drawn.foreground = .basic(best)
                if !keepsBold { drawn.attributes.remove(.bold) }
                return drawn
            }
        }
        // Nothing reaches the rule on this background: the most contrast there is, without bold.
        let best = (0..<UInt8(count)).max { shown($0, bold: false).contrast < shown($1, bold: false).contrast }!
        drawn.foreground = .basic(best)
        drawn.attributes.remove(.bold)
        return drawn
    }

    /// The RGB value xterm shows for a colour that is not `default` (24-bit colours as themselves).
    public static func rgb(_ color: TerminalColor) -> RGBColor {
        let index: UInt8
        switch color {
        case .default: return .black
        case .basic(let value): index = value
        case .indexed(let value): index = value
        case .rgb(let red, let green, let blue): return RGBColor(red: red, green: green, blue: blue)
        }
        let (red, green, blue) = ColorApproximation.rgb(forIndexed: index)
        return RGBColor(red: UInt8(red), green: UInt8(green), blue: UInt8(blue))
    }

    /// The nearest of the first `count` basic colours, `default` kept.
    private static func nearest(_ color: TerminalColor, count: Int) -> TerminalColor {
        switch color {
        case .default: return .default
        case .basic(let value) where Int(value) < count: return color
        case .basic(let value), .indexed(let value): return .basic(ColorApproximation.basic(forIndexed: value, colors: count))
        case .rgb(let red, let green, let blue):
            return .basic(ColorApproximation.basic(forIndexed: ColorApproximation.indexed(red: red, green: green, blue: blue), colors: count))
        }
    }

    private static func halfway(_ a: RGBColor, _ b: RGBColor) -> RGBColor {
        RGBColor(red: UInt8((Int(a.red) + Int(b.red)) / 2), green: UInt8((Int(a.green) + Int(b.green)) / 2), blue: UInt8((Int(a.blue) + Int(b.blue)) / 2))
    }

    private static func distance(_ a: RGBColor, _ b: RGBColor) -> Int {
        let (red, green, blue) = (Int(a.red) - Int(b.red), Int(a.green) - Int(b.green), Int(a.blue) - Int(b.blue))
        return red * red + green * green + blue * blue
    }
}

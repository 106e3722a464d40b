import CNcursesw
import NewsstandUI

/// Turns theme colours into ncurses colour pairs, allocating each (foreground, background) pair once,
/// and degrading 24-bit and 256 colours to what the terminal has: on 8 and 16 colours through
/// `BasicColorFallback`, which keeps every style readable (and may drop bold to do so).
struct ColorPalette {
    var mode: CursesBackend.ColorMode
    var available = 8
    private var pairs: [PairKey: Int] = [:]
    /// Styles as drawn on a terminal of fewer than 256 colours, worked out once each.
    private var basicStyles: [TextStyle: TextStyle] = [:]

    private struct PairKey: Hashable {
        let foreground: Int32
        let background: Int32
    }

    init(mode: CursesBackend.ColorMode) {
        self.mode = mode
    }

    /// The colour pair and attributes a cell in `style` is drawn with.
    mutating func drawn(_ style: TextStyle) -> (pair: Int, attributes: TextAttributes) {
        guard mode != .none else { return (0, style.attributes) }
        guard available < 256 else { return (pair(for: style), style.attributes) }
        let basic: TextStyle
        if let known = basicStyles[style] {
            basic = known
        } else {
            basic = BasicColorFallback.drawn(style, colors: available)
            basicStyles[style] = basic
        }
        return (pair(for: basic), basic.attributes)
    }

    private mutating func pair(for style: TextStyle) -> Int {
        guard mode != .none else { return 0 }
        let key = PairKey(foreground: index(of: style.foreground), background: index(of: style.background))
        if key.foreground == -1 && key.background == -1 { return 0 }
        if let pair = pairs[key] { return pair }
        let pair = Int(alloc_pair(key.foreground, key.background))
        let usable = pair > 0 ? pair : 0
        pairs[key] = usable
        return usable
    }

    /// The terminal colour index for a theme colour; -1 is the terminal's default.
    private func index(of color: TerminalColor) -> Int32 {
        switch color {
        case .default: return -1
        case .basic(let value): return Int32(available >= 16 ? value : value % 8)
        case .indexed(let value):
            if available >= 256 { return Int32(value) }
            return Int32(ColorApproximation.basic(forIndexed: value, colors: available))
        case .rgb(let red, let green, let blue):
            let indexed = ColorApproximation.indexed(red: red, green: green, blue: blue)
            if available >= 256 { return Int32(indexed) }
            return Int32(ColorApproximation.basic(forIndexed: indexed, colors: available))
        }
    }
}

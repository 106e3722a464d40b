import NewsstandImaging
import NewsstandTestSupport
import XCTest
@testable import NewsstandUI

/// Every bundled theme is readable: each style letters are drawn in has a WCAG contrast of at least 4.5:1 with
/// the background it is drawn on, decorations (bars, cover art, the selection's accent) at least 3:1.
///
/// Colours are what xterm shows at 256 colours: its palette (`ColorApproximation.rgb(forIndexed:)`), 24-bit
/// colours at the nearest palette entry as the backend sends them, bold with colours 0–7 shown as 8–15 (xterm's
/// `boldColors`), dim as half-way between ink and paper, reverse swapping the two. Where a theme leaves a colour
/// to the terminal (`default`), both of xterm's usual defaults are tried: black on white and white on black.
final class ThemeContrastTests: XCTestCase {
    struct Terminal {
        let name: String
        let foreground: RGBColor
        let background: RGBColor
    }

    static let terminals = [Terminal(name: "black on white", foreground: .black, background: .white),
                            Terminal(name: "white on black", foreground: .white, background: .black)]
    static let letterMinimum = 4.5, decorationMinimum = 3.0

    /// Elements whose cells hold letters (every element but the decorations).
    static let decorations: Set<ThemeElement> = [.progressRemaining, .cover]
    /// Elements a list row draws on the selection's background when it is the selected row (`RowHighlight`).
    static let onSelectedRows: [ThemeElement] = [.title, .date, .summary, .text, .stateDownload, .stateRead, .stateFailed,
                                                 .readingMarker, .progressDone, .progressRemaining]
    /// Elements article lines are drawn in, which inline code (the `code` colour over their background) may sit on.
    static let articleLines: [ThemeElement] = [.text, .heading, .quote, .link]

    static func bundledThemes() throws -> [Theme] {
        let names = try ThemeTests.bundledNames()
        XCTAssertTrue(Set(names).isSuperset(of: ["dark", "paper", "mono"]), "\(names)")
        return try names.map { try ThemeTests.bundled($0) }
    }

    /// The colour xterm shows for `color`, `fallback` for the terminal's default.
    static func rgb(_ color: TerminalColor, default fallback: RGBColor) -> RGBColor {
        let index: UInt8
        switch color {
        case .default: return fallback
        case .basic(let value): index = value
        case .indexed(let value): index = value
        case .rgb(let red, let green, let blue): index = ColorApproximation.indexed(red: red, green: green, blue: blue)
        }
        let (red, green, blue) = ColorApproximation.rgb(forIndexed: index)
        return RGBColor(red: UInt8(red), green: UInt8(green), blue: UInt8(blue))
    }

    /// The ink and paper a cell in `style` shows on `terminal`.
    static func drawn(_ style: TextStyle, on terminal: Terminal) -> (ink: RGBColor, paper: RGBColor) {
        var foreground = style.foreground
        if style.attributes.contains(.bold), case .basic(let value) = foreground, value < 8 { foreground = .basic(value + 8) }
        var ink = rgb(foreground, default: terminal.foreground), paper = rgb(style.background, default: terminal.background)
        if style.attributes.contains(.reverse) { swap(&ink, &paper) }
        if style.attributes.contains(.dim) {
            ink = RGBColor(red: UInt8((Int(ink.red) + Int(paper.red)) / 2), green: UInt8((Int(ink.green) + Int(paper.green)) / 2),
                           blue: UInt8((Int(ink.blue) + Int(paper.blue)) / 2))
        }
        return (ink, paper)
    }

    /// Every place a theme draws, with the least contrast it needs: (what, style, minimum).
    static func drawings(of theme: Theme) -> [(String, TextStyle, Double)] {
        var drawings: [(String, TextStyle, Double)] = []
        for element in ThemeElement.allCases {
            drawings.append((element.rawValue, theme[element], decorations.contains(element) ? decorationMinimum : letterMinimum))
        }
        let selection = theme[.selection]
        for element in onSelectedRows {
            var style = theme[element]
            style.background = selection.background
            style.attributes.formUnion(selection.attributes)
            drawings.append(("\(element.rawValue) on the selected row", style, decorations.contains(element) ? decorationMinimum : letterMinimum))
        }
        for element in articleLines {
            var style = theme[element]
            style.foreground = theme[.code].foreground
            drawings.append(("inline code in \(element.rawValue)", style, letterMinimum))
        }
        let accent = RowHighlight.accent(theme)
        drawings.append(("the selection's accent bar", selection.withForeground(accent), decorationMinimum))
        drawings.append(("the selection's accent bar beside it", theme[.background].withForeground(accent), decorationMinimum))
        return drawings
    }

    func testEveryStyleIsReadableInEveryBundledThemeOnBothDefaultBackgrounds() throws {
        var failures: [String] = []
        for theme in try Self.bundledThemes() {
            for variant in [theme, theme.withoutColors()] {
                for terminal in Self.terminals {
                    for (what, style, minimum) in Self.drawings(of: variant) {
                        let (ink, paper) = Self.drawn(style, on: terminal)
                        let ratio = ContrastRatio.between(ink, paper)
                        if ratio < minimum {
                            failures.append("\(variant.name)\(variant == theme ? "" : " (NO_COLOR)"), \(terminal.name): \(what) "
                                            + "is \(String(format: "%.2f", ratio)):1, under \(minimum):1")
                        }
                    }
                }
            }
        }
        XCTAssertEqual(failures, [], "\n" + failures.joined(separator: "\n"))
    }

    /// The same rule on terminals of 8 and 16 colours (TERM=xterm, xterm-16color, the Linux console), each style as
    /// `BasicColorFallback` draws it there, in xterm's default 16 colours with its bold colours.
    func testEveryStyleIsReadableOnEightAndSixteenColoursOnBothDefaultBackgrounds() throws {
        var failures: [String] = []
        for theme in try Self.bundledThemes() {
            for colors in [8, 16] {
                for terminal in Self.terminals {
                    for (what, style, minimum) in Self.drawings(of: theme) {
                        let basic = BasicColorFallback.drawn(style, colors: colors)
                        for color in [basic.foreground, basic.background] {
                            if case .basic(let index) = color, index < colors { continue }
                            if color == .default { continue }
                            failures.append("\(theme.name), \(colors) colours: \(what) drawn in \(color), not one of the \(colors)")
                        }
                        let (ink, paper) = Self.drawn(basic, on: terminal)
                        let ratio = ContrastRatio.between(ink, paper)
                        if ratio < minimum {
                            failures.append("\(theme.name), \(colors) colours, \(terminal.name): \(what) is \(String(format: "%.2f", ratio)):1, under \(minimum):1")
                        }
                    }
                }
            }
        }
        XCTAssertEqual(failures, [], "\n" + failures.joined(separator: "\n"))
    }

    /// Nearest colours alone break the rule on 8 and 16 colours; the fallback keeps the nearest colour that does not.
    func testTheBasicColourFallbackKeepsTheRuleWhereNearestColoursBreakIt() throws {
        let paper = try ThemeTests.bundled("paper")
        let onWhite = Self.terminals[0]
        // Paper's bold black title on cream: the nearest colours are black on white, which xterm shows bold as grey.
        let title = paper[.title]
        let nearest = TextStyle(foreground: .basic(ColorApproximation.basic(forIndexed: 16, colors: 16)),
                                background: .basic(ColorApproximation.basic(forIndexed: 230, colors: 16)), attributes: title.attributes)
        let nearestDrawn = Self.drawn(nearest, on: onWhite)
        XCTAssertLessThan(ContrastRatio.between(nearestDrawn.ink, nearestDrawn.paper), 4.5, "bold black is grey")
        let fallback = BasicColorFallback.drawn(title, colors: 16)
        XCTAssertEqual(fallback, TextStyle(foreground: .basic(0), background: .basic(7)), "black on white, bold dropped")
        // The dark theme's colours mostly survive: bright white bold titles on black keep their bold.
        let dark = try ThemeTests.bundled("dark")
        XCTAssertEqual(BasicColorFallback.drawn(dark[.title], colors: 8), TextStyle(foreground: .basic(7), background: .basic(0), attributes: [.bold]))
        XCTAssertEqual(BasicColorFallback.drawn(dark[.title], colors: 16), TextStyle(foreground: .basic(15), background: .basic(0), attributes: [.bold]))
        // The terminal's own colours stay its own.
        XCTAssertEqual(BasicColorFallback.drawn(TextStyle(attributes: [.bold, .reverse]), colors: 8), TextStyle(attributes: [.bold, .reverse]))
        // On magenta with 8 colours only bold white (shown as bright white, 4.7:1) is readable; without bold nothing
        // reaches 4.5:1, and black (4.48:1) is the most contrast there is.
        XCTAssertEqual(BasicColorFallback.drawn(TextStyle(foreground: .indexed(250), background: .basic(5), attributes: [.bold]), colors: 8),
                       TextStyle(foreground: .basic(7), background: .basic(5), attributes: [.bold]))
        XCTAssertEqual(BasicColorFallback.drawn(TextStyle(foreground: .indexed(250), background: .basic(5)), colors: 8),
                       TextStyle(foreground: .basic(0), background: .basic(5)))
    }

    func testTheRuleCatchesUnreadableStyles() {
        // The default theme as it was: bold white titles on the terminal's background, unreadable on white.
        let old = Theme(name: "old", styles: [.title: TextStyle(foreground: .basic(15), attributes: [.bold])])
        let onWhite = Self.drawn(old[.title], on: Self.terminals[0]), onBlack = Self.drawn(old[.title], on: Self.terminals[1])
        XCTAssertLessThan(ContrastRatio.between(onWhite.ink, onWhite.paper), 1.1)
        XCTAssertGreaterThan(ContrastRatio.between(onBlack.ink, onBlack.paper), 20)
        // Bold black is xterm's bright black (grey): on orange it is no longer readable.
        let tab = Self.drawn(TextStyle(foreground: .basic(0), background: .indexed(215), attributes: [.bold]), on: Self.terminals[0])
        XCTAssertEqual(tab.ink, RGBColor(red: 127, green: 127, blue: 127))
        XCTAssertLessThan(ContrastRatio.between(tab.ink, tab.paper), 4.5)
        XCTAssertEqual(ContrastRatio.between(.black, .white), 21, accuracy: 0.001)
        XCTAssertEqual(ContrastRatio.between(.white, .white), 1, accuracy: 0.001)
        XCTAssertEqual(Self.rgb(.rgb(250, 5, 5), default: .black), RGBColor(red: 255, green: 0, blue: 0), "24-bit drawn as palette 196")
        XCTAssertEqual(Self.rgb(.indexed(244), default: .black), RGBColor(red: 128, green: 128, blue: 128))
    }
}

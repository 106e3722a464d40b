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

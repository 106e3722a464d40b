import Foundation
import NewsstandImaging
import XCTest

/// The shelf in real terminals on a virtual X display, judged by their pixels: xterm as it starts (black on white),
/// xterm on black with sixel, and Debian's kitty (0.26, no Unicode placeholders). In each, the letters of a title,
/// a date, a summary, the selected row and the key hints read at WCAG 4.5:1 against their cells' background; the
/// first cover's cells hold a picture (many colours); kitty logs no parse error; nothing stays after quitting.
final class RealTerminalEndToEndTests: EndToEndTestCase {
    static let columns = 100, rows = 30
    /// Text the sample library's shelf shows, each looked at where it is drawn.
    static let texts = ["Maps & Margins", "Small Engines", "20 March 2026", "How a bicycle keeps", "help"]

    /// Where things are on the shelf, in cells: found by drawing the same shelf in tmux (same size, a fresh library).
    struct Layout {
        var texts: [String: (column: Int, row: Int)] = [:]
        /// The middle of the first cover's cells (clear of the margins a fitted picture may leave).
        var cover: (column: Int, row: Int, columns: Int, rows: Int) = (0, 0, 0, 0)
    }

    private func layout() throws -> Layout {
        let scratch = home.appendingPathComponent("layout", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: Self.columns, height: Self.rows,
                                      environment: TestEnvironment.environment(home: scratch, sample: true))
        let screen = try session.waitFor("the shelf with its hints") { screen in Self.texts.allSatisfy { screen.contains($0) } }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.unicodeScalars) }
        var layout = Layout()
        for text in Self.texts {
            let wanted = Array(text.unicodeScalars)
            for (row, line) in lines.enumerated() where line.count >= wanted.count {
                if let column = (0...(line.count - wanted.count)).first(where: { Array(line[$0..<($0 + wanted.count)]) == wanted }) {
                    layout.texts[text] = (column, row)
                    break
                }
            }
        }
        let first = try XCTUnwrap(layout.texts["Maps & Margins"], screen)
        // The cover stands left of the title, from the title's row down 8 rows, from column 2 to 2 before the title.
        layout.cover = (3, first.row + 1, first.column - 6, 5)
        return layout
    }

    /// Starts the shelf in the terminal `start` opens, checks its letters and first cover, quits, checks nothing stays.
    /// `pictureColors`: how many colours the cover's middle must show (a picture: dozens; half-block text art at
    /// 256 colours: about a dozen; the failures looked for, blank or placeholder cells: one or two).
    /// `whileRunning` is given the display, the window's title and the first cover's pixels in a screenshot, before quitting.
    /// `isLight`: whether the terminal's background is light, so `theme auto` must have chosen paper's light page.
    private func checkShelf(title: String, isLight: Bool, pictureColors: Int = 24, start: (XtermDisplay, [String], [String: String]) throws -> Void,
                            whileRunning: ((XtermDisplay, ([UInt8]) -> [RGBColor]) throws -> Void)? = nil,
                            file: StaticString = #filePath, line: UInt = #line) throws -> XtermDisplay {
        let layout = try layout()
        let display = try XtermDisplay()
        let started = Date()
        try start(display, [try TestEnvironment.binary().path], TestEnvironment.environment(home: home, sample: true))
        let window = try display.window(titled: title)
        let cell = (width: window.width / Self.columns, height: window.height / Self.rows)
        func pixels(column: Int, row: Int, columns: Int, rows: Int, in screen: [UInt8]) -> [RGBColor] {
            XtermDisplay.colors(in: screen, x: window.x + column * cell.width, y: window.y + row * cell.height,
                                width: columns * cell.width, height: rows * cell.height)
        }
        let cover = layout.cover
        var screen: [UInt8] = []
        var coverColors = 0
        let deadline = Date().addingTimeInterval(30)
        repeat {
            usleep(300_000)
            screen = try display.screenshot()
            coverColors = XtermDisplay.distinctColors(pixels(column: cover.column, row: cover.row, columns: cover.columns, rows: cover.rows, in: screen))
        } while coverColors < pictureColors && Date() < deadline
        XCTAssertGreaterThanOrEqual(coverColors, pictureColors, "\(title): the first cover's cells hold a picture, not a few flat colours", file: file, line: line)
        usleep(500_000)
        screen = try display.screenshot()
        for text in Self.texts {
            let place = try XCTUnwrap(layout.texts[text])
            let look = XtermDisplay.textContrast(of: pixels(column: place.column, row: place.row, columns: text.count, rows: 1, in: screen))
            XCTAssertGreaterThanOrEqual(look.ratio, 4.5, "\(title): “\(text)” is \(look.ink) on \(look.paper)", file: file, line: line)
        }
        let page = XtermDisplay.textContrast(of: pixels(column: 0, row: Self.rows - 4, columns: Self.columns, rows: 1, in: screen)).paper
        XCTAssertEqual(ContrastRatio.luminance(page) > 0.5, isLight,
                       "\(title): theme auto follows the terminal's background (the page is \(page))", file: file, line: line)

        try whileRunning?(display) { pixels(column: cover.column, row: cover.row, columns: cover.columns, rows: cover.rows, in: $0) }

        let program = try XCTUnwrap(display.programID(), "the program's id")
        kill(program, SIGTERM)
        var left = coverColors
        let quitDeadline = Date().addingTimeInterval(10)
        repeat {
            usleep(300_000)
            left = XtermDisplay.distinctColors(pixels(column: cover.column, row: cover.row, columns: cover.columns, rows: cover.rows,
                                                      in: try display.screenshot()))
        } while left > 2 && Date() < quitDeadline
        XCTAssertLessThanOrEqual(left, 2, "\(title): nothing of the cover is left after quitting", file: file, line: line)
        XCTAssertLessThan(Date().timeIntervalSince(started), 45, "\(title): well under a minute", file: file, line: line)
        return display
    }

    func testXtermAsItStartsBlackOnWhite() throws {
        // No sixel here (xterm's default VT420): the cover is half-block text art.
        _ = try checkShelf(title: "newsstand-xterm-light", isLight: true, pictureColors: 8) { display, command, environment in
            try display.startXterm(command, options: [], title: "newsstand-xterm-light", columns: Self.columns, rows: Self.rows, environment: environment)
        }
    }

    func testXtermOnBlackWithSixel() throws {
        _ = try checkShelf(title: "newsstand-xterm-dark", isLight: false) { display, command, environment in
            try display.startXterm(command, options: ["-ti", "vt340", "-bg", "black", "-fg", "white"], title: "newsstand-xterm-dark",
                                   columns: Self.columns, rows: Self.rows, environment: environment)
        }
    }

    func testKittyAsDebianShipsIt() throws {
        let log = home.appendingPathComponent("kitty.log")
        let title = "newsstand-kitty"
        _ = try checkShelf(title: title, isLight: false, start: { display, command, environment in
            try display.startKitty(command, title: title, columns: Self.columns, rows: Self.rows, environment: environment, log: log)
        }, whileRunning: { display, coverPixels in
            // Placed directly (no placeholders), pictures must be taken off and put back by the program itself.
            let shown = coverPixels(try display.screenshot())
            let paper = XtermDisplay.textContrast(of: shown).paper
            func share(after keys: [String], _ wanted: (Double) -> Bool, _ what: String) throws {
                try display.press(keys, window: title)
                var last = 0.0
                let deadline = Date().addingTimeInterval(10)
                repeat {
                    usleep(300_000)
                    last = XtermDisplay.sameShare(shown, coverPixels(try display.screenshot()), paper: paper)
                } while !wanted(last) && Date() < deadline
                XCTAssertTrue(wanted(last), "\(what): \(Int(last * 100))% of the first cover is where it was")
            }
            try share(after: ["question"], { $0 < 0.1 }, "another screen (help) takes the picture off")
            try share(after: ["Escape"], { $0 > 0.9 }, "back on the shelf it is placed again")
            try share(after: ["G"], { $0 < 0.5 }, "scrolled to the end, another cover is in its place")
            XCTAssertGreaterThanOrEqual(XtermDisplay.distinctColors(coverPixels(try display.screenshot())), 24, "a picture, not a gap")
            try share(after: ["g"], { $0 > 0.9 }, "back at the top, the first cover again")
            // A smaller window: the shelf is drawn again from nothing, its pictures placed again.
            let window = try display.window(titled: title)
            try display.resize(window: title, width: window.width, height: window.height * 2 / 3)
            try share(after: [], { $0 > 0.9 }, "after a resize the cover is placed again")
        })
        let errors = try String(contentsOf: log, encoding: .utf8)
        XCTAssertFalse(errors.localizedCaseInsensitiveContains("error"), "kitty reported: \(errors)")
    }

    func testKittyWithALightBackground() throws {
        let log = home.appendingPathComponent("kitty.log"), title = "newsstand-kitty-light"
        _ = try checkShelf(title: title, isLight: true) { display, command, environment in
            try display.startKitty(command, options: ["background=#ffffff", "foreground=#000000"], title: title,
                                   columns: Self.columns, rows: Self.rows, environment: environment, log: log)
        }
        let errors = try String(contentsOf: log, encoding: .utf8)
        XCTAssertFalse(errors.localizedCaseInsensitiveContains("error"), "kitty reported: \(errors)")
    }
}

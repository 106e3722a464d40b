import XCTest
@testable import NewsstandUI

/// The help screen shows every key's help whole: at any width a long description wraps onto rows of its own, beside
/// its keys, instead of being cut at the screen's edge.
final class HelpScreenTests: XCTestCase {
    func testALongHelpWrapsBesideItsKeys() throws {
        let star = try XCTUnwrap(HelpScreen.lines(.standard).first { $0.key == "*" })
        var state = Fixtures.state(width: 64, height: 24, issues: [])
        _ = AppUpdate.update(&state, .keyPressed(.character("?")))
        XCTAssertEqual(state.screen, .help)
        // Scrolled until the star's row is in the screen's top half, so that the rows its help continues on are there too.
        var screen: [String] = []
        var row: Int?
        for _ in 0..<400 {
            screen = AppView.render(state, theme: .fallback).lines()
            row = screen.firstIndex { $0.hasPrefix("    * ") }
            if let row, row < 12 { break }
            _ = AppUpdate.update(&state, .keyPressed(.character("j")))
        }
        let start = try XCTUnwrap(row, screen.joined(separator: "\n"))
        // Keys from column 4, help from column 25 (4 + a third of 64): the help's rows are the star's and those after it
        // with no keys.
        var words: [Substring] = []
        for (offset, line) in screen[start...].enumerated() {
            if offset > 0 && !line.prefix(25).trimmingCharacters(in: .whitespaces).isEmpty { break }
            XCTAssertLessThanOrEqual(line.count, 64, "no row passes the screen's edge")
            words += line.dropFirst(25).split(separator: " ")
        }
        XCTAssertEqual(words.joined(separator: " "), star.help.split(separator: " ").joined(separator: " "), "every word, in order")
        XCTAssertGreaterThan(HelpScreen.rows(.standard, width: 64).count, HelpScreen.lines(.standard).count, "long ones take more rows")
    }

    /// `?` opens the help at the keys of the screen it is pressed on; from the shelf at the top, as always.
    func testTheHelpOpensAtTheKeysOfTheScreenItIsOpenedFrom() throws {
        var state = Fixtures.state(width: 100, height: 30, issues: [])
        _ = AppUpdate.update(&state, .keyPressed(.character("?")))
        XCTAssertEqual(Array(AppView.render(state, theme: .fallback).lines()[1...3]).map { $0.trimmingCharacters(in: .whitespaces) },
                       ["KEYS", "", "SHELF"], "from the shelf: the top")
        for screen in [Screen.downloads(DownloadsScreen()), .subscriptions(SubscriptionsScreen()), .storage(StorageScreen())] {
            var state = Fixtures.state(width: 100, height: 30, issues: [])
            state.screens.append(screen)
            let kind = screen.kind
            _ = AppUpdate.update(&state, .keyPressed(.character("?")))
            XCTAssertEqual(state.screen, .help)
            let lines = AppView.render(state, theme: .fallback).lines()
            let heading = try XCTUnwrap(kind.helpTitle).uppercased()
            XCTAssertEqual(lines[3].trimmingCharacters(in: .whitespaces), heading, "from \(kind): its keys first\n\(lines.joined(separator: "\n"))")
            _ = AppUpdate.update(&state, .keyPressed(.character("g")))
            XCTAssertEqual(AppView.render(state, theme: .fallback).lines()[3].trimmingCharacters(in: .whitespaces), "SHELF", "g: the top")
        }
    }
}

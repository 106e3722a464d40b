import Foundation
import NewsstandCore
import NewsstandTestSupport
import XCTest
@testable import NewsstandUI

/// The config's `bind` and `unbind` lines, read into the key table in effect.
final class KeyTableTests: XCTestCase {
    private func table(_ text: String) throws -> KeyTable {
        try KeyTable(lines: Configuration.parse(text, source: "config").keyBindingLines)
    }

    private func problems(_ text: String) -> [String] {
        do {
            _ = try table(text)
            return []
        } catch {
            return (error as? KeyBindingError)?.messages ?? ["\(error)"]
        }
    }

    func testNoLinesIsTheStandardTable() throws {
        XCTAssertEqual(try table("theme paper\n"), KeyTable.standard)
        XCTAssertEqual(KeyTable.standard.bindings, KeyMap.bindings)
    }

    func testBindAddsTheKeyWhereTheCommandWorksAndTakesItFromOtherCommands() throws {
        let keys = try table("bind Z toggle-shelf-view\nbind c quit shelf\n")
        XCTAssertEqual(keys.command(for: .character("Z"), on: .shelf), .toggleShelfView)
        XCTAssertEqual(keys.command(for: .character("v"), on: .shelf), .toggleShelfView, "the old key stays")
        XCTAssertNil(keys.command(for: .character("Z"), on: .article), "only where the command works")
        XCTAssertEqual(keys.command(for: .character("c"), on: .shelf), .quit)
        XCTAssertEqual(keys.hints(for: .shelf).first { $0.command == .toggleShelfView }?.keyLabel, "v/Z", "hints follow")
        XCTAssertFalse(keys.hints(for: .shelf).contains { $0.command == .continueReading }, "a command left without keys is not hinted")
        XCTAssertTrue(HelpScreen.lines(keys).contains { $0.key == "unbound" && $0.help.hasPrefix("Continue reading") }, "help says so")
        XCTAssertTrue(HelpScreen.lines(keys).contains { $0.key == "v/Z" }, "help follows")
    }

    func testBindOnSomeScreensSplitsTheRowAndLeavesTheOthersAlone() throws {
        let keys = try table("bind Q back article\n")
        XCTAssertEqual(keys.command(for: .character("Q"), on: .article), .back)
        XCTAssertNil(keys.command(for: .character("Q"), on: .contents))
        XCTAssertEqual(keys.command(for: .escape, on: .contents), .back)
        let articleRows = keys.documented(on: .article).filter { $0.command == .back }
        XCTAssertEqual(articleRows.count, 1, "one row per screen still")
        XCTAssertEqual(keys.documented(on: .contents).filter { $0.command == .back }.count, 1)
    }

    func testUnbindTakesAKeyAwayEverywhereOrOnTheScreensNamed() throws {
        let everywhere = try table("unbind j\n")
        for screen in ScreenKind.allCases { XCTAssertNil(everywhere.command(for: .character("j"), on: screen), "\(screen)") }
        XCTAssertEqual(everywhere.command(for: .down, on: .shelf), .moveDown)
        let shelfOnly = try table("unbind j shelf\n")
        XCTAssertNil(shelfOnly.command(for: .character("j"), on: .shelf))
        XCTAssertEqual(shelfOnly.command(for: .character("j"), on: .article), .moveDown)
        let rebound = try table("unbind x\nbind x refresh shelf\n")
        XCTAssertEqual(rebound.command(for: .character("x"), on: .shelf), .refresh)
    }

    func testKeyNames() throws {
        let keys = try table("bind Ctrl-N next-publication\nbind ^p previous-publication\nbind pgdn next-article article\nbind Hash help shelf\nbind Space top shelf\n")
        XCTAssertEqual(keys.command(for: .control("n"), on: .shelf), .nextPublication)
        XCTAssertEqual(keys.command(for: .control("p"), on: .shelf), .previousPublication)
        XCTAssertEqual(keys.command(for: .pageDown, on: .article), .nextArticle)
        XCTAssertEqual(keys.command(for: .character("#"), on: .shelf), .help)
        XCTAssertEqual(keys.command(for: .character(" "), on: .shelf), .top)
        XCTAssertEqual(Key(name: "↓"), .down)
        XCTAssertEqual(Key(name: "shift-tab"), .backTab)
        XCTAssertNil(Key(name: "Ctrl-"))
        XCTAssertNil(Key(name: "F13"))
    }

    func testEveryCommandHasANameBindTakesAndAScreen() {
        for command in Command.allCases {
            XCTAssertEqual(Command(name: command.name), command)
            XCTAssertFalse(KeyTable.standard.screens(of: command).isEmpty, "\(command.name) has no row in KeyMap")
        }
        XCTAssertEqual(Command.toggleShelfView.name, "toggle-shelf-view")
        for screen in ScreenKind.allCases { XCTAssertEqual(ScreenKind(name: screen.name), screen) }
    }

    func testProblemsNameTheirLineAndWhatIsWrong() {
        let found = problems("""
            theme paper
            bind F13 quit
            bind x quitt
            bind x toggle-shelf-view article
            bind x help shelf
            bind x refresh shelf
            unbind Ctrl-C
            bind Q
            bind Q quit nowhere
            """)
        XCTAssertEqual(found.count, 7, "\(found)")
        func line(_ number: Int, _ fragment: String, file: StaticString = #filePath, lineNumber: UInt = #line) {
            XCTAssertTrue(found.contains { $0.hasPrefix("config, line \(number): ") && $0.contains(fragment) },
                          "line \(number) should say \(fragment): \(found)", file: file, line: lineNumber)
        }
        line(2, "unknown key 'F13'")
        line(3, "unknown command 'quitt'")
        line(4, "toggle-shelf-view does nothing on the article screen (it works on: shelf)")
        line(6, "x is bound to help on the shelf screen by line 5")
        line(7, "Ctrl-C always quits")
        line(8, "write it as bind KEY COMMAND")
        line(9, "unknown screen 'nowhere'")
    }

    func testTheSameBindTwiceIsNoConflictAndUnbindEndsOne() {
        XCTAssertEqual(problems("bind x help shelf\nbind x help\n"), [])
        XCTAssertEqual(problems("bind x help shelf\nunbind x shelf\nbind x refresh shelf\n"), [])
    }

    func testKeyLinesAreNotUnknownSettings() {
        let configuration = Configuration.parse("bind Z toggle-shelf-view\nunbind v\n")
        XCTAssertEqual(configuration.warnings, [])
        XCTAssertEqual(configuration.keyBindingLines.map(\.verb), [.bind, .unbind])
        XCTAssertEqual(configuration.keyBindingLines.first?.place, "config, line 1")
    }

    /// The README's example of key lines applies as it says.
    func testTheReadmeExampleApplies() throws {
        let readme = try String(contentsOf: TestFiles.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "#### Your own keys").dropFirst().first)
        let example = try XCTUnwrap(section.components(separatedBy: "```").dropFirst().first)
        let keys = try table(example)
        XCTAssertEqual(keys.command(for: .character("Z"), on: .shelf), .toggleShelfView)
        XCTAssertNil(keys.command(for: .character("v"), on: .shelf))
        XCTAssertEqual(keys.command(for: .control("n"), on: .shelf), .nextPublication)
    }

    /// A rebound key works through `AppUpdate`: the state's table is the one used.
    func testTheStatesTableDrivesKeys() throws {
        var state = AppState(width: 80, height: 24)
        state.keys = try table("bind K help shelf\n")
        _ = AppUpdate.update(&state, .keyPressed(.character("K")))
        XCTAssertEqual(state.screen, .help)
    }
}

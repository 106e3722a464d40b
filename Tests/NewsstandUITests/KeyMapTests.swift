import XCTest
@testable import NewsstandUI

final class KeyMapTests: XCTestCase {
    func testNoKeyMeansTwoThingsOnOneScreen() {
        for screen in ScreenKind.allCases {
            var seen: [Key: Command] = [:]
            for binding in KeyMap.bindings where binding.screens.contains(screen) {
                for key in binding.keys {
                    if let other = seen[key], other != binding.command {
                        XCTFail("\(key.label) means both \(other) and \(binding.command) on \(screen)")
                    }
                    seen[key] = binding.command
                }
            }
        }
    }

    func testEveryScreenCanBeLeftAndHasHelp() {
        XCTAssertEqual(KeyMap.command(for: .character("q"), on: .shelf), .quit)
        for screen in [ScreenKind.contents, .article, .help] {
            XCTAssertEqual(KeyMap.command(for: .escape, on: screen), .back)
            XCTAssertEqual(KeyMap.command(for: .character("q"), on: screen), .back)
        }
        for screen in ScreenKind.allCases { XCTAssertEqual(KeyMap.command(for: .control("c"), on: screen), .quit) }
        for screen in [ScreenKind.shelf, .contents, .article] { XCTAssertEqual(KeyMap.command(for: .character("?"), on: screen), .help) }
    }

    func testAnyClickIsATap() {
        XCTAssertEqual(KeyMap.command(for: .mouseClick(x: 17, y: 9), on: .shelf), .tap)
    }

    func testHelpScreenListsEveryBindingWithHelp() {
        let helpText = HelpScreen.lines(.standard).map { "\($0.key) \($0.help)" }.joined(separator: "\n")
        for binding in KeyMap.bindings where !binding.help.isEmpty {
            XCTAssertTrue(helpText.contains(binding.help), "help is missing: \(binding.help)")
        }
    }
}

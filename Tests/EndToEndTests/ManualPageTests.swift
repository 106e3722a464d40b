import Foundation
import NewsstandCore
import NewsstandTestSupport
import NewsstandUI
import XCTest

/// `newsstand man`: newsstand(1) in roff, written from the program's tables. Rendered by mandoc, it names every
/// command and option `--help` lists, every key of the key table and every setting; `mandoc -T lint` finds
/// nothing worse than a style note.
final class ManualPageTests: EndToEndTestCase {
    private func manualPage() throws -> String {
        let result = try TestEnvironment.run(["man"], environment: TestEnvironment.environment(home: home))
        XCTAssertEqual(result.status, 0, result.errors)
        return result.output
    }

    /// The page as mandoc renders it for a terminal, bold and underline taken out, white space made single spaces.
    private func rendered(_ page: String) throws -> String {
        let file = home.appendingPathComponent("newsstand.1")
        try Data(page.utf8).write(to: file)
        let result = try TestEnvironment.run(executable: try Self.mandoc(), ["-T", "utf8", "-O", "width=200", file.path],
                                             environment: ["LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(result.status, 0, result.errors)
        let plain = result.output.replacingOccurrences(of: #".\x{8}"#, with: "", options: .regularExpression)
        return plain.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    private static func mandoc() throws -> URL {
        URL(fileURLWithPath: try TestRequirement.program("mandoc", package: "mandoc"))
    }

    func testEveryCommandOptionKeyAndSettingIsInThePage() throws {
        let text = try rendered(try manualPage())
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "KEYS", "CONFIGURATION", "FILES", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES"] {
            XCTAssertTrue(text.contains(" \(section) "), "the page lacks \(section)")
        }
        // The commands and options as `--help` lists them (the program's USAGE rows, from the same table).
        let help = try TestEnvironment.run(["--help"], environment: TestEnvironment.environment(home: home)).output
        let usage = help.components(separatedBy: "\n").prefix { !$0.hasPrefix("ISSUE is") }.joined(separator: "\n")
        let commands = usage.components(separatedBy: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  newsstand ") else { return nil }
            let word = line.dropFirst("  newsstand ".count).prefix { $0 != " " }
            return word.hasPrefix("-") || word.hasPrefix("[") ? nil : String(word)
        }
        XCTAssertGreaterThan(commands.count, 18, usage)
        XCTAssertTrue(commands.contains("completion"))
        for command in commands {
            XCTAssertTrue(text.contains("newsstand \(command)"), "the page lacks the command \(command)")
        }
        let options = Set(usage.matches(of: /--[a-z][a-z-]*/).map { String($0.output) })
        XCTAssertTrue(options.isSuperset(of: ["--auto-download", "--cover-mode", "--format", "--keep-downloads", "--password-stdin"]), "\(options)")
        for option in options {
            XCTAssertTrue(text.contains(option), "the page lacks the option \(option)")
        }
        XCTAssertTrue(text.contains("--auto-download none|latest|all"), "option values are in the synopsis")
        XCTAssertFalse(text.contains("__names"), "hidden commands stay out of the page")

        // Every key of the key table, with its command name and help, screen by screen.
        for (title, screen) in HelpScreen.sections {
            let bindings = KeyTable.standard.documented(on: screen)
            guard !bindings.isEmpty else { continue }
            XCTAssertTrue(text.contains(title), "the page lacks the keys of \(title)")
            for binding in bindings {
                XCTAssertTrue(text.contains("\(HelpScreen.keyLabel(binding)) (\(binding.command.name))"),
                              "the page lacks \(HelpScreen.keyLabel(binding)) (\(binding.command.name)) of \(title)")
            }
        }
        // Every setting of the config file.
        XCTAssertFalse(Configuration.settingNames.isEmpty)
        for setting in Configuration.settingDescriptions {
            let described = setting.what.isEmpty ? "" : setting.what.split(separator: " ").joined(separator: " ") + ". "
            XCTAssertTrue(text.contains("\(setting.name) \(described)Takes \(setting.takes)."), "the page lacks the setting \(setting.name)")
        }
        XCTAssertTrue(text.contains("max-downloads Transfers that run at once (default: 3). Takes a number from 1 to 16."), "settings say what they do")
        for place in ["$XDG_DATA_HOME/newsstand", "$XDG_CONFIG_HOME/newsstand", "$XDG_CACHE_HOME/newsstand", "NO_COLOR", "NEWSSTAND_THEMES"] {
            XCTAssertTrue(text.contains(place), "the page lacks \(place)")
        }
        XCTAssertTrue(text.contains("Newsstand \(NewsstandVersion.string)"), "the footer names the version")
    }

    func testMandocLintFindsNothingWorseThanAStyleNote() throws {
        let page = try manualPage()
        let file = home.appendingPathComponent("newsstand.1")
        try Data(page.utf8).write(to: file)
        let lint = try TestEnvironment.run(executable: try Self.mandoc(), ["-T", "lint", "-W", "warning", file.path],
                                           environment: ["LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(lint.output + lint.errors, "", "mandoc -T lint -W warning reports:\n\(lint.output)\(lint.errors)")
        XCTAssertEqual(lint.status, 0)
    }

    func testRoffIsEscaped() throws {
        let page = try manualPage()
        var lines = page.components(separatedBy: "\n")
        lines.removeAll { $0.hasPrefix(#".\""#) }  // comments
        XCTAssertTrue(lines.removeFirst().hasPrefix(".TH NEWSSTAND 1 "))  // the title line: its date keeps its hyphens
        for line in lines {
            // A hyphen is \- (a minus, as options are typed); a bare one would print as a typographic hyphen.
            XCTAssertNil(line.range(of: #"(?<!\\)-"#, options: .regularExpression), "an unescaped hyphen: \(line)")
            XCTAssertTrue(line.allSatisfy(\.isASCII), "characters beyond ASCII are written \\[uXXXX]: \(line)")
            XCTAssertFalse(line.hasPrefix("'"), "a line starting with a quote is a request: \(line)")
            if line.hasPrefix(".") {
                let request = line.dropFirst().prefix { $0 != " " }
                XCTAssertTrue(["TH", "SH", "SS", "TP", "PP", "br", "EX", "EE"].contains(String(request)), "an unknown request: \(line)")
            }
        }
        XCTAssertFalse(page.contains("\n\n"), "no blank lines in roff text")
        XCTAssertTrue(page.contains(#"\fB\-\-auto\-download\fR"#), "options in bold with escaped hyphens")
        XCTAssertTrue(page.contains(#"\fBnewsstand\fR \fBread\fR \fIISSUE\fR"#), "command words in bold, placeholders in italics")
    }

    func testDateComesFromSourceDateEpoch() throws {
        var environment = TestEnvironment.environment(home: home)
        environment["SOURCE_DATE_EPOCH"] = "1700000000"
        let result = try TestEnvironment.run(["man"], environment: environment)
        XCTAssertTrue(result.output.contains(".TH NEWSSTAND 1 2023-11-14 "), String(result.output.prefix(300)))
    }
}

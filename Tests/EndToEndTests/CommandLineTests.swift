import Foundation
import LocalHTTPServer
import NewsstandTestSupport
import XCTest

/// The command line as scripts use it: exit statuses, JSON, plain text.
final class CommandLineTests: EndToEndTestCase {

    func testFirstRunSubscribesTheSampleAndListsItAsJSON() throws {
        let result = try TestEnvironment.run(["list", "--json"], environment: TestEnvironment.environment(home: home, sample: true))
        XCTAssertEqual(result.status, 0, result.errors)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.count, 6)
        XCTAssertEqual(rows.first?["publication"] as? String, "kettle-compass")
        XCTAssertEqual(rows.first?["name"] as? String, "2026-autumn")
        XCTAssertEqual(rows.first?["date"] as? String, "2026-09-22T12:00:00Z")
        XCTAssertEqual(rows.first?["state"] as? String, "none")
        XCTAssertNotNil(rows.first?["progress"] as? Double)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.appendingPathComponent(".local/share/newsstand/library.sqlite").path),
                      "the library lives under XDG_DATA_HOME's default")
    }

    /// A command closes the library as it ends, so no write-ahead log is left for the next start to read back; also when
    /// the command fails.
    func testCommandsLeaveNoWriteAheadLogBehind() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        let library = home.appendingPathComponent(".local/share/newsstand/library.sqlite")
        let log = URL(fileURLWithPath: library.path + "-wal")
        let first = try TestEnvironment.run(["list"], environment: environment) // the first run subscribes the sample: writes
        XCTAssertEqual(first.status, 0, first.errors)
        XCTAssertTrue(FileManager.default.fileExists(atPath: library.path))
        // The log's file stays, empty, for the next start (`LibraryStore.writeAheadLogLimit`).
        XCTAssertEqual(Self.fileSize(log), 0, "list left the log behind")
        let failed = try TestEnvironment.run(["download", "no-such-issue"], environment: environment)
        XCTAssertNotEqual(failed.status, 0)
        XCTAssertEqual(Self.fileSize(log), 0, "a failed command left the log behind")
    }

    /// libcurl and the two dozen libraries it brings are opened by the first network request, not at every start.
    func testLibcurlIsLoadedOnlyWhenTheNetworkIsUsed() throws {
        var environment = TestEnvironment.environment(home: home, sample: true)
        environment["LD_DEBUG"] = "files"  // glibc's loader names every library it loads, on standard error
        let list = try TestEnvironment.run(["list"], environment: environment)
        XCTAssertEqual(list.status, 0, list.errors)
        XCTAssertTrue(list.errors.contains("libsqlite3"), "LD_DEBUG reports loaded libraries: \(list.errors.prefix(500))")
        XCTAssertFalse(list.errors.contains("libcurl"), "listing the library loaded libcurl")
        for library in ["libcrypto", "libarchive", "libsixel", "libxml2", "libicu"] {
            XCTAssertFalse(list.errors.contains(library), "listing the library loaded \(library)")
        }
        let server = try startSampleServer()
        let subscribe = try TestEnvironment.run(["subscribe", server.url(for: "catalog.plist").absoluteString], environment: environment)
        XCTAssertEqual(subscribe.status, 0, subscribe.errors)
        XCTAssertTrue(subscribe.errors.contains("libcurl.so.4"), "subscribing over HTTP opened libcurl")
    }

    /// libxml2 (and ICU, which Debian builds it with) is opened by the first XML document read, not at every start.
    func testLibxml2IsLoadedOnlyWhenADocumentIsRead() throws {
        var environment = TestEnvironment.environment(home: home, sample: true)
        environment["LD_DEBUG"] = "files"  // as above: the loader names every library it loads
        let list = try TestEnvironment.run(["list"], environment: environment)
        XCTAssertEqual(list.status, 0, list.errors)
        XCTAssertFalse(list.errors.contains("libxml2"), "listing the library loaded libxml2")
        // A feed in a file, so that importing needs no network (`import` reads each feed it subscribes to).
        let feed = home.appendingPathComponent("tea.xml"), opml = home.appendingPathComponent("feeds.opml")
        try Data("""
            <?xml version="1.0"?><rss version="2.0"><channel><title>Tea</title><item><title>One</title><guid>1</guid>
            <enclosure url="\(home.appendingPathComponent("one.epub").absoluteString)" type="application/epub+zip" length="10"/></item></channel></rss>
            """.utf8).write(to: feed)
        try Data(#"<opml version="2.0"><body><outline text="Tea" xmlUrl="\#(feed.absoluteString)"/></body></opml>"#.utf8).write(to: opml)
        let imported = try TestEnvironment.run(["import", opml.path], environment: environment)
        XCTAssertEqual(imported.status, 0, imported.errors)
        XCTAssertTrue(imported.output.contains("Imported 1 subscription"), imported.output)
        XCTAssertTrue(imported.errors.contains("libxml2.so.2"), "reading the OPML file opened libxml2")
    }

    func testDownloadThenReadPlainText() throws {
        var environment = TestEnvironment.environment(home: home, sample: true)
        environment["LD_DEBUG"] = "files"  // as above: the loader names every library it loads
        let download = try TestEnvironment.run(["download", "2025-autumn"], environment: environment)
        XCTAssertEqual(download.status, 0, download.errors)
        XCTAssertTrue(download.errors.contains("libcrypto.so.3"), "the catalog's SHA-256 was checked with libcrypto, opened on first use")
        XCTAssertTrue(download.errors.contains("libarchive.so.13"), "the EPUB was unpacked with libarchive, opened on first use")
        environment["LD_DEBUG"] = nil
        XCTAssertTrue(download.errors.contains("100%"), download.errors)
        let read = try TestEnvironment.run(["read", "2025-autumn", "--plain", "--article", "1", "--width", "50"], environment: environment)
        XCTAssertEqual(read.status, 0, read.errors)
        XCTAssertTrue(read.output.contains("金継ぎ"), "wide characters come through")
        XCTAssertFalse(read.output.contains("\u{1B}"), "--plain has no escape sequences")
        for line in read.output.split(separator: "\n") {
            XCTAssertLessThanOrEqual(line.count, 50, "line wider than --width: \(line)")
        }
        let missing = try TestEnvironment.run(["read", "2025-autumn", "--article", "9"], environment: environment)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.errors.contains("there is no article 9"), missing.errors)
    }

    func testFailedDownloadExitsNonZeroAndKeepsTheReason() throws {
        let server = try startSampleServer()
        let catalog = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array>
            <dict><key>Name</key><string>gone</string><key>Title</key><string>Gone</string>
            <key>Date</key><date>2026-01-01T00:00:00Z</date><key>Content</key><string>issues/missing.epub</string></dict>
            </array></plist>
            """
        server.setResource("/broken.plist", data: Data(catalog.utf8))
        let environment = TestEnvironment.environment(home: home)
        XCTAssertEqual(try TestEnvironment.run(["subscribe", server.url(for: "broken.plist").absoluteString], environment: environment).status, 0)
        let download = try TestEnvironment.run(["download", "gone"], environment: environment)
        XCTAssertEqual(download.status, 1)
        XCTAssertTrue(download.errors.contains("404"), download.errors)
        let listed = try TestEnvironment.run(["list", "--json"], environment: environment)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.first?["state"] as? String, "failed")
        XCTAssertTrue((rows.first?["failure"] as? String ?? "").contains("404"))
    }

    func testSubscribingToSomethingThatIsNotACatalogSavesNothing() throws {
        let environment = TestEnvironment.environment(home: home)
        let junk = home.appendingPathComponent("junk.plist")
        try Data("this is not a property list".utf8).write(to: junk)
        let result = try TestEnvironment.run(["subscribe", junk.path], environment: environment)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("not a feed"), result.errors)
        XCTAssertEqual(try TestEnvironment.run(["list", "--json"], environment: environment).output.trimmingCharacters(in: .whitespacesAndNewlines), "[\n\n]")
    }

    func testUnsubscribeRemovesThePublicationAndItsFiles() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        XCTAssertEqual(try TestEnvironment.run(["download", "2025-spring"], environment: environment).status, 0)
        let issues = home.appendingPathComponent(".local/share/newsstand/issues/kettle-compass")
        XCTAssertTrue(FileManager.default.fileExists(atPath: issues.path))
        let result = try TestEnvironment.run(["unsubscribe", "kettle-compass"], environment: environment)
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertFalse(FileManager.default.fileExists(atPath: issues.path))
        XCTAssertTrue(try TestEnvironment.run(["list"], environment: environment).output.contains("No issues"), "the sample is not re-added")
    }

    func testExportThenImportMovesSubscriptionsToAnotherLibrary() throws {
        let first = TestEnvironment.environment(home: home, sample: true)
        let exported = try TestEnvironment.run(["export"], environment: first)
        XCTAssertEqual(exported.status, 0, exported.errors)
        XCTAssertTrue(exported.output.contains(#"title="Kettle &amp; Compass""#), exported.output)
        let file = home.appendingPathComponent("subscriptions.opml")
        try Data(exported.output.utf8).write(to: file)

        let otherHome = try TestEnvironment.temporaryHome()
        defer { try? FileManager.default.removeItem(at: otherHome) }
        let second = TestEnvironment.environment(home: otherHome)
        let imported = try TestEnvironment.run(["import", file.path], environment: second)
        XCTAssertEqual(imported.status, 0, imported.errors)
        XCTAssertEqual(imported.output, "Imported 1 subscription.\n")
        XCTAssertEqual(try TestEnvironment.run(["import", file.path], environment: second).output, "Imported 0 subscriptions; 1 already subscribed.\n")
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try TestEnvironment.run(["list", "--json"], environment: second).output.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.count, 6)
    }

    func testUsageErrorsHelpAndVersion() throws {
        let environment = TestEnvironment.environment(home: home)
        let unknown = try TestEnvironment.run(["frobnicate"], environment: environment)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.errors.contains("unknown command 'frobnicate'"))
        let help = try TestEnvironment.run(["--help"], environment: environment)
        XCTAssertEqual(help.status, 0)
        for command in ["subscribe URL", "unsubscribe PUBLICATION", "list [--json]", "download ISSUE", "read ISSUE"] {
            XCTAssertTrue(help.output.contains(command), "help lacks \(command)")
        }
        XCTAssertTrue(try TestEnvironment.run(["--version"], environment: environment).output.hasPrefix("newsstand "))
        XCTAssertEqual(try TestEnvironment.run(["read"], environment: environment).status, 2)
        let notATerminal = try TestEnvironment.run([], environment: environment)
        XCTAssertEqual(notATerminal.status, 1)
        XCTAssertTrue(notATerminal.errors.contains("needs a terminal"))
    }

    /// Every command word and its synopsis, as `--help` must list them (written out here, not read from the program).
    private static let synopses: [(name: String, synopsis: String)] = [
        ("subscribe", "subscribe URL [--auto-download none|latest|all] [--keep N] [--full-text never|ask|always] [--account SERVER-URL] [--no-account]"),
        ("unsubscribe", "unsubscribe PUBLICATION [--keep-downloads]"),
        ("subscriptions", "subscriptions [--json]"),
        ("catalog", "catalog URL [--search TEXT] [--json]"),
        ("login", "login URL [--user NAME] [--password-stdin] [--register]"),
        ("logout", "logout HOST"),
        ("logins", "logins"),
        ("account", "account add URL|list|remove URL [--user NAME] [--password-stdin] [--json]"),
        ("sync", "sync [--quiet]"),
        ("storage", "storage [--evict]"),
        ("import", "import FILE"),
        ("export", "export"),
        ("list", "list [--json]"),
        ("headlines", "headlines PUBLICATION [--json]"),
        ("mark", "mark ISSUE|HEADLINE... [--read] [--unread] [--star] [--unstar]"),
        ("download", "download ISSUE..."),
        ("read", "read ISSUE [--plain] [--toc] [--article N] [--width N]"),
        ("search", "search TEXT... [--limit N]"),
        ("position", "position ISSUE [--json]"),
        ("article", "article URL|FILE [--base URL] [--format text|markdown|json]"),
        ("notes", "notes ISSUE|--all [--format markdown|json|webannotation|koreader] [--import FILE]"),
        ("cover", "cover ISSUE|--file PATH [--width N] [--height N] [--mode ascii|ascii-color|blocks] [--light]"),
        ("keys", "keys"),
        ("help", "help [COMMAND]"),
        ("completion", "completion bash|zsh|fish"),
    ]

    /// Text with every run of spaces and line breaks made one space, so a synopsis wrapped over two lines reads whole.
    private static func flattened(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    /// The command words of the USAGE rows of a help text (rows start `  newsstand WORD`; the shelf's and
    /// `--help | --version` start with an option).
    private static func usageCommandWords(_ help: String) -> [String] {
        help.components(separatedBy: "\n").compactMap { line in
            guard line.hasPrefix("  newsstand ") else { return nil }
            let word = line.dropFirst("  newsstand ".count).prefix { $0 != " " }
            return word.hasPrefix("-") || word.hasPrefix("[") ? nil : String(word)
        }
    }

    func testHelpListsEveryCommandWithItsSynopsis() throws {
        let environment = TestEnvironment.environment(home: home)
        let help = try TestEnvironment.run(["--help"], environment: environment)
        XCTAssertEqual(help.status, 0, help.errors)
        XCTAssertEqual(Self.usageCommandWords(help.output), Self.synopses.map(\.name), "the USAGE rows are the commands, in order")
        let flat = Self.flattened(help.output)
        XCTAssertTrue(flat.contains("newsstand [--theme NAME] [--cover-mode MODE] [--screen-reader] [--demo] open the shelf"), help.output)
        for (name, synopsis) in Self.synopses {
            XCTAssertTrue(flat.contains("newsstand \(synopsis) "), "--help lacks the synopsis of \(name): \(synopsis)")
        }
        XCTAssertTrue(flat.contains("newsstand --help | --version"))
        for section in ["ISSUE is an issue's name", "OPTIONS", "FILES", "ENVIRONMENT"] {
            XCTAssertTrue(help.output.contains(section), "--help lacks \(section)")
        }
        for line in help.output.components(separatedBy: "\n") where line.hasPrefix("  newsstand ") || line.hasPrefix("      ") {
            XCTAssertLessThanOrEqual(line.count, 80, "USAGE row wider than 80 columns: \(line)")
        }
        for other in [["help"], ["-h"]] {
            XCTAssertEqual(try TestEnvironment.run(other, environment: environment).output, help.output, "\(other) prints the same help")
        }
    }

    func testHelpForOneCommandPrintsItsSynopsisAndSummary() throws {
        let environment = TestEnvironment.environment(home: home)
        let help = try TestEnvironment.run(["help", "subscribe"], environment: environment)
        XCTAssertEqual(help.status, 0, help.errors)
        XCTAssertTrue(Self.flattened(help.output).contains("newsstand subscribe URL [--auto-download none|latest|all] [--keep N] [--full-text never|ask|always] [--account SERVER-URL] [--no-account] subscribe to a publication's catalog"),
                      help.output)
        XCTAssertFalse(help.output.contains("unsubscribe"), "only the one command: \(help.output)")
        for form in [["subscribe", "--help"], ["subscribe", "-h"], ["subscribe", "http://example.invalid/", "--keep", "3", "--help"]] {
            let other = try TestEnvironment.run(form, environment: environment)
            XCTAssertEqual(other.status, 0, "\(form): \(other.errors)")
            XCTAssertEqual(other.output, help.output, "\(form) prints what `help subscribe` prints")
        }
        for (name, synopsis) in Self.synopses {
            let own = try TestEnvironment.run([name, "--help"], environment: environment)
            XCTAssertEqual(own.status, 0, "\(name) --help: \(own.errors)")
            XCTAssertTrue(Self.flattened(own.output).contains("newsstand \(synopsis) "), "\(name) --help: \(own.output)")
        }
        let unknown = try TestEnvironment.run(["help", "subscibe"], environment: environment)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.errors.contains("unknown command 'subscibe' (did you mean subscribe?)"), unknown.errors)
    }

    func testDoubleDashMakesTheWordsAfterItPositional() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        let search = try TestEnvironment.run(["search", "--", "--weird"], environment: environment)
        XCTAssertEqual(search.status, 1, "searched for the text, found nothing: \(search.errors)")
        XCTAssertTrue(search.errors.contains("no matches for “--weird”"), search.errors)
        let notHelp = try TestEnvironment.run(["search", "--limit", "5", "--", "--help", "-h"], environment: environment)
        XCTAssertTrue(notHelp.errors.contains("no matches for “--help -h”"), "after --, --help is text: \(notHelp.errors)")
        let read = try TestEnvironment.run(["read", "--", "-name-"], environment: environment)
        XCTAssertEqual(read.status, 1)
        XCTAssertTrue(read.errors.contains("no issue named '-name-'"), read.errors)
        let withoutDashes = try TestEnvironment.run(["read", "-name-"], environment: environment)
        XCTAssertEqual(withoutDashes.status, 2, "without --, a dash word is an option")
        XCTAssertTrue(withoutDashes.errors.contains("unknown option '-name-' for 'read'"), withoutDashes.errors)
    }

    func testMistypedOptionIsNamedWithTheNearestOption() throws {
        let environment = TestEnvironment.environment(home: home, sample: true)
        let typo = try TestEnvironment.run(["list", "--jsn"], environment: environment)
        XCTAssertEqual(typo.status, 2)
        XCTAssertEqual(typo.output, "")
        XCTAssertEqual(typo.errors, "newsstand: unknown option '--jsn' for 'list' (did you mean --json?)\nRun `newsstand --help` for usage.\n")
        let swapped = try TestEnvironment.run(["read", "2025-autumn", "--tco"], environment: environment)
        XCTAssertEqual(swapped.status, 2)
        XCTAssertTrue(swapped.errors.contains("unknown option '--tco' for 'read' (did you mean --toc?)"), swapped.errors)
        let shelf = try TestEnvironment.run(["--them", "paper"], environment: environment)
        XCTAssertEqual(shelf.status, 2)
        XCTAssertTrue(shelf.errors.contains("unknown option '--them' for the shelf (did you mean --theme?)"), shelf.errors)
        let far = try TestEnvironment.run(["read", "2025-autumn", "--colour"], environment: environment)
        XCTAssertEqual(far.status, 2)
        XCTAssertTrue(far.errors.contains("unknown option '--colour' for 'read' (its options: --plain, --toc, --article N, --width N)"), far.errors)
        let none = try TestEnvironment.run(["export", "--json"], environment: environment)
        XCTAssertEqual(none.status, 2)
        XCTAssertTrue(none.errors.contains("unknown option '--json' for 'export' (it takes no options)"), none.errors)
        let missingValue = try TestEnvironment.run(["search", "kettle", "--limit"], environment: environment)
        XCTAssertEqual(missingValue.status, 2)
        XCTAssertTrue(missingValue.errors.contains("--limit needs a value"), missingValue.errors)
        let valuedFlag = try TestEnvironment.run(["list", "--json=yes"], environment: environment)
        XCTAssertEqual(valuedFlag.status, 2)
        XCTAssertTrue(valuedFlag.errors.contains("--json takes no value"), valuedFlag.errors)
        let equals = try TestEnvironment.run(["read", "2025-autumn", "--width=10"], environment: environment)
        XCTAssertEqual(equals.status, 2)
        XCTAssertTrue(equals.errors.contains("--width takes a number from 20 to 1000, not '10'"), "--name=VALUE gives the value: \(equals.errors)")
    }

    func testUnknownCommandSuggestsTheNearestCommand() throws {
        let environment = TestEnvironment.environment(home: home)
        let typo = try TestEnvironment.run(["lsit", "--json"], environment: environment)
        XCTAssertEqual(typo.status, 2)
        XCTAssertEqual(typo.errors, "newsstand: unknown command 'lsit' (did you mean list?)\nRun `newsstand --help` for usage.\n")
        let close = try TestEnvironment.run(["subscribtions"], environment: environment)
        XCTAssertTrue(close.errors.contains("(did you mean subscriptions?)"), close.errors)
        let far = try TestEnvironment.run(["frobnicate"], environment: environment)
        XCTAssertEqual(far.status, 2)
        XCTAssertTrue(far.errors.contains("unknown command 'frobnicate' (the commands are \(Self.synopses.map(\.name).joined(separator: ", ")))"), far.errors)
    }

    func testReadmeCommandLineBlockIsTheHelpUsage() throws {
        let help = try TestEnvironment.run(["--help"], environment: TestEnvironment.environment(home: home))
        let usage = try XCTUnwrap(help.output.components(separatedBy: "USAGE\n").dropFirst().first?.components(separatedBy: "\n\n").first)
        let readme = try String(contentsOf: TestFiles.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "### Command line\n").dropFirst().first)
        let block = try XCTUnwrap(section.components(separatedBy: "```\n").dropFirst().first)
        XCTAssertEqual(block, usage.components(separatedBy: "\n").map { String($0.dropFirst(2)) }.joined(separator: "\n") + "\n",
                       "README's command-line block is --help's USAGE, two spaces less indented")
    }
}

import Foundation
import NewsstandTestSupport
import XCTest

/// The completion scripts as `make install` puts them (with the debug binary, in a DESTDIR staging tree), each
/// run by its shell the way the shell finds it: bash through bash-completion's loader, zsh through compinit and
/// its fpath, fish through its vendor folder. Commands, options, option values, file names, and the issue names
/// of the library (the sample's, subscribed on the first run).
final class CompletionTests: EndToEndTestCase {
    private var stage: URL!
    private var environment: [String: String] = [:]
    /// A folder holding one file, `feeds.opml`, where the shells run (for file name completion).
    private var workFolder: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        stage = try TestFiles.scratchFolder(for: self)
        let install = try InstallTests.make(["install", "DESTDIR=\(stage.path)", "PREFIX=/usr", "BINARY=\(try TestEnvironment.binary().path)"])
        XCTAssertEqual(install.status, 0, install.errors)
        environment = TestEnvironment.environment(home: home).filter { !$0.key.hasPrefix("NEWSSTAND_") }
        environment["PATH"] = stage.appendingPathComponent("usr/bin").path + ":/usr/bin:/bin"
        environment["XDG_DATA_DIRS"] = stage.appendingPathComponent("usr/share").path + ":/usr/share"
        workFolder = home.appendingPathComponent("work", isDirectory: true)
        try FileManager.default.createDirectory(at: workFolder, withIntermediateDirectories: true)
        try Data("<opml/>".utf8).write(to: workFolder.appendingPathComponent("feeds.opml"))
        // The first run subscribes the installed sample: six issues, 2025-spring to 2026-autumn.
        let list = try TestEnvironment.run(executable: stage.appendingPathComponent("usr/bin/newsstand"), ["list"], environment: environment)
        XCTAssertEqual(list.status, 0, list.errors)
    }

    private func shell(_ name: String) throws -> URL {
        URL(fileURLWithPath: try TestRequirement.program(name, package: name))
    }

    // MARK: the helper

    func testNamesHelperPrintsIssueAndPublicationNamesStartingWithThePrefix() throws {
        let program = stage.appendingPathComponent("usr/bin/newsstand")
        func names(_ arguments: String...) throws -> [String] {
            let result = try TestEnvironment.run(executable: program, ["__names"] + arguments, environment: environment)
            XCTAssertEqual(result.status, 0, result.errors)
            return result.output.split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(try names("issues", "--", "2026"), ["2026-autumn", "2026-spring"])
        XCTAssertEqual(try names("issues", "--", "kettle"), ["kettle-compass/"])
        XCTAssertEqual(try names("issues", "--", "kettle-compass/2025-s"), ["kettle-compass/2025-spring", "kettle-compass/2025-summer"])
        XCTAssertEqual(try names("issues", "--", "").count, 7, "six issues and the publication")
        XCTAssertEqual(try names("issues", "--", "zzz"), [])
        XCTAssertEqual(try names("publications", "--", ""), ["kettle-compass"])
        XCTAssertEqual(try names("themes", "--", ""), ["auto", "dark", "mono", "paper"])
        XCTAssertEqual(try names("themes", "--", "pa"), ["paper"])
        XCTAssertEqual(try names("hosts", "--", ""), [], "no login saved yet")
        let login = try TestEnvironment.run(["login", "https://news.example.com:8443/opds", "--user", "reader", "--password-stdin"],
                                            input: "secret\n", environment: environment)
        XCTAssertEqual(login.status, 0, login.errors)
        XCTAssertEqual(try names("hosts", "--", "news"), ["news.example.com:8443"], "the host only: no user, no password")
        // Without a library nothing is printed and none is made.
        var empty = environment
        let emptyHome = home.appendingPathComponent("empty-home")
        empty["HOME"] = emptyHome.path
        let none = try TestEnvironment.run(executable: program, ["__names", "issues", "--", ""], environment: empty)
        XCTAssertEqual(none.status, 0, none.errors)
        XCTAssertEqual(none.output, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: emptyHome.path), "completing created a library")
        XCTAssertEqual(try TestEnvironment.run(executable: program, ["__names", "hats"], environment: environment).status, 2)
    }

    func testHelpAndCompletionCommand() throws {
        let program = stage.appendingPathComponent("usr/bin/newsstand")
        let help = try TestEnvironment.run(executable: program, ["--help"], environment: environment)
        XCTAssertTrue(help.output.contains("newsstand completion bash|zsh|fish"), help.output)
        XCTAssertFalse(help.output.contains("__names"), "the helper is hidden")
        XCTAssertFalse(help.output.contains("newsstand man"), "the manual page command is hidden")
        let wrong = try TestEnvironment.run(executable: program, ["completion", "tcsh"], environment: environment)
        XCTAssertEqual(wrong.status, 2)
        XCTAssertTrue(wrong.errors.contains("bash, zsh, fish"), wrong.errors)
        // The installed scripts are what the command prints.
        for (shell, path) in [("bash", "usr/share/bash-completion/completions/newsstand"), ("zsh", "usr/share/zsh/site-functions/_newsstand"),
                              ("fish", "usr/share/fish/vendor_completions.d/newsstand.fish")] {
            let printed = try TestEnvironment.run(executable: program, ["completion", shell], environment: environment).output
            XCTAssertEqual(try String(contentsOf: stage.appendingPathComponent(path), encoding: .utf8), printed, shell)
        }
    }

    // MARK: bash

    /// Runs bash without a terminal: bash-completion loads the installed script on demand (as it does at a Tab),
    /// then the completion function runs for each line, and its candidates are printed, a block per line.
    private func bashCandidates(_ lines: [[String]]) throws -> [[String]] {
        guard FileManager.default.fileExists(atPath: "/usr/share/bash-completion/bash_completion") else {
            throw TestRequirement.absent("bash-completion is not installed (Debian package bash-completion; `make test` installs it)")
        }
        var script = """
            source /usr/share/bash-completion/bash_completion
            __load_completion newsstand || { echo "not loaded"; exit 3; }
            complete -p newsstand >&2
            complete_line() {
                COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
                _newsstand newsstand "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[@]}" | sort; echo ---
            }
            cd \(workFolder.path)

            """
        for words in lines {
            script += "complete_line " + words.map { "'\($0)'" }.joined(separator: " ") + "\n"
        }
        let result = try TestEnvironment.run(executable: try shell("bash"), ["--norc", "--noprofile", "-c", script], environment: environment)
        XCTAssertEqual(result.status, 0, result.output + result.errors)
        XCTAssertTrue(result.errors.contains("complete -F _newsstand newsstand"), result.errors)
        return result.output.components(separatedBy: "---\n").dropLast().map { $0.split(separator: "\n").map(String.init) }
    }

    func testBashCompletesCommandsOptionsValuesFilesAndIssues() throws {
        let results = try bashCandidates([
            ["newsstand", "sub"],
            ["newsstand", "subscribe", "x", "--"],
            ["newsstand", "subscribe", "x", "--auto-download", ""],
            ["newsstand", "notes", "--format", "="], // --format= arrives as --format and =
            ["newsstand", "--cover-mode", "ascii"],
            ["newsstand", "read", "2026-a"],
            ["newsstand", "download", "kettle-compass/2025-s"],
            ["newsstand", "import", "fee"],
            ["newsstand", "help", "no"],
            ["newsstand", "--theme", "p"],
            ["newsstand", "unsubscribe", ""],
            ["newsstand", "login", ""],
            ["newsstand", "read", "2026-autumn", ""],
            ["newsstand", "read", "--width", "40", "2026-a"],
            ["newsstand", "download", "2026-autumn", "2026-s"],
            ["newsstand", "notes", "--format", "=", "json", "2026-a"], // bash splits --format=json in three
            ["newsstand", "account", ""],
            ["newsstand", "account", "r"],
            ["newsstand", "account", "add", ""],
            ["newsstand", "account", "--user", "reader", "l"],
        ])
        XCTAssertEqual(results.count, 20)
        XCTAssertEqual(results[0], ["subscribe", "subscriptions"])
        XCTAssertEqual(results[1], ["--account", "--auto-download", "--full-text", "--help", "--keep", "--local", "--no-account"])
        XCTAssertEqual(results[2], ["all", "latest", "none"])
        XCTAssertEqual(results[3], ["json", "koreader", "markdown", "webannotation"])
        XCTAssertEqual(results[4], ["ascii", "ascii-color"])
        XCTAssertEqual(results[5], ["2026-autumn"])
        XCTAssertEqual(results[6], ["kettle-compass/2025-spring", "kettle-compass/2025-summer"])
        XCTAssertEqual(results[7], ["feeds.opml"])
        XCTAssertEqual(results[8], ["notes"])
        XCTAssertEqual(results[9], ["paper"])
        XCTAssertEqual(results[10], ["kettle-compass"])
        XCTAssertEqual(results[11], [], "a URL to log in to is free text: nothing offered")
        XCTAssertEqual(results[12], [], "read takes one issue: none is offered after it")
        XCTAssertEqual(results[13], ["2026-autumn"], "an option's value is not an argument")
        XCTAssertEqual(results[14], ["2026-spring"], "download takes any number of issues")
        XCTAssertEqual(results[15], ["2026-autumn"], "--format=json is one option")
        XCTAssertEqual(results[16], ["add", "list", "remove"], "account's subcommands")
        XCTAssertEqual(results[17], ["remove"])
        XCTAssertEqual(results[18], [], "after the subcommand, a URL: nothing offered")
        XCTAssertEqual(results[19], ["list"], "an option's value is not the subcommand")
    }

    // MARK: fish

    private func fishCandidates(_ line: String) throws -> [String] {
        let result = try TestEnvironment.run(executable: try shell("fish"), ["-c", "cd \(workFolder.path); complete -C '\(line)'"], environment: environment)
        XCTAssertEqual(result.status, 0, result.errors)
        return result.output.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }.sorted()
    }

    func testFishCompletesCommandsOptionsValuesFilesAndIssues() throws {
        let commands = try fishCandidates("newsstand ")
        XCTAssertTrue(commands.contains("subscribe") && commands.contains("completion") && commands.contains("read"), "\(commands)")
        XCTAssertFalse(commands.contains("__names") || commands.contains("man"), "\(commands)")
        XCTAssertEqual(try fishCandidates("newsstand sub"), ["subscribe", "subscriptions"])
        XCTAssertEqual(try fishCandidates("newsstand subscribe x --auto-download "), ["all", "latest", "none"])
        XCTAssertEqual(try fishCandidates("newsstand notes --format="), ["--format=json", "--format=koreader", "--format=markdown", "--format=webannotation"])
        XCTAssertEqual(try fishCandidates("newsstand cover --mode a"), ["ascii", "ascii-color"])
        XCTAssertEqual(try fishCandidates("newsstand read 2026-a"), ["2026-autumn"])
        XCTAssertEqual(try fishCandidates("newsstand download kettle-compass/2025-s"), ["kettle-compass/2025-spring", "kettle-compass/2025-summer"])
        XCTAssertEqual(try fishCandidates("newsstand import fee"), ["feeds.opml"])
        XCTAssertEqual(try fishCandidates("newsstand --theme p"), ["paper"])
        XCTAssertEqual(try fishCandidates("newsstand list --"), ["--help", "--json"])
        XCTAssertEqual(try fishCandidates("newsstand read 2026-autumn "), [], "read takes one issue: none is offered after it")
        XCTAssertEqual(try fishCandidates("newsstand read --width 40 2026-a"), ["2026-autumn"], "an option's value is not an argument")
        XCTAssertEqual(try fishCandidates("newsstand download 2026-autumn 2026-s"), ["2026-spring"], "download takes any number")
        XCTAssertEqual(try fishCandidates("newsstand account "), ["add", "list", "remove"], "account's subcommands")
        XCTAssertEqual(try fishCandidates("newsstand account re"), ["remove"])
        XCTAssertEqual(try fishCandidates("newsstand account list "), [], "one subcommand")
    }

    // MARK: zsh

    /// zsh has no way to list completions without a terminal: it runs in tmux with compinit finding the installed
    /// `_newsstand` through fpath, and the test types Tab as a person would.
    func testZshCompletesCommandsOptionsValuesFilesAndIssues() throws {
        _ = try shell("zsh")
        let dotFolder = home.appendingPathComponent("zdot", isDirectory: true)
        try FileManager.default.createDirectory(at: dotFolder, withIntermediateDirectories: true)
        try Data("""
            fpath=(\(stage.appendingPathComponent("usr/share/zsh/site-functions").path) $fpath)
            autoload -Uz compinit && compinit -u -d \(dotFolder.path)/compdump
            PS1='zsh> '
            cd \(workFolder.path)

            """.utf8).write(to: dotFolder.appendingPathComponent(".zshrc"))
        var zshEnvironment = environment
        zshEnvironment["ZDOTDIR"] = dotFolder.path
        let session = try TmuxSession(command: "zsh -i", width: 120, height: 30, environment: zshEnvironment)
        try session.waitFor(text: "zsh>")  // tmux drops the space after it

        func complete(_ typed: String, until expected: String) throws -> String {
            try session.send("C-u", "C-l")
            try session.send("-l", typed)
            try session.send("Tab")
            return try session.waitFor(text: expected)
        }
        // Two commands start with "sub": the line completes as far as they agree, and a second Tab lists both.
        _ = try complete("newsstand sub", until: "zsh> newsstand subscri")
        try session.send("Tab")
        let commands = try session.waitFor(text: "subscriptions")
        XCTAssertTrue(commands.contains("subscribe"), commands)
        _ = try complete("newsstand read 2026-a", until: "zsh> newsstand read 2026-autumn")
        _ = try complete("newsstand download kettle-compass/2025-su", until: "zsh> newsstand download kettle-compass/2025-summer")
        let formats = try complete("newsstand notes --format ", until: "markdown")
        XCTAssertTrue(formats.contains("json"), formats)
        _ = try complete("newsstand subscribe x --auto-download la", until: "zsh> newsstand subscribe x --auto-download latest")
        _ = try complete("newsstand import fee", until: "zsh> newsstand import feeds.opml")
        _ = try complete("newsstand --theme pa", until: "zsh> newsstand --theme paper")
        _ = try complete("newsstand account re", until: "zsh> newsstand account remove")
        let subcommands = try complete("newsstand account ", until: "remove")
        XCTAssertTrue(subcommands.contains("add") && subcommands.contains("list"), subcommands)
        // `help` takes one command: after it, Tab offers no more commands, only the options (-h, --help: it puts
        // their common "-"). The X typed after Tab shows when Tab is done.
        try session.send("C-u", "C-l")
        try session.send("-l", "newsstand help notes ")
        try session.send("Tab")
        try session.send("-l", "X")
        let afterOne = try session.waitFor(text: "zsh> newsstand help notes -X")
        XCTAssertFalse(afterOne.contains("subscriptions"), afterOne)
        let options = try complete("newsstand list --", until: "--json")
        XCTAssertTrue(options.contains("--help"), options)
        try session.send("C-u")
        try session.send("-l", "exit")
        try session.send("Enter")
    }
}

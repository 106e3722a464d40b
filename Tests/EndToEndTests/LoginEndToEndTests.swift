import Foundation
import LocalHTTPServer
import NewsstandTestSupport
import XCTest

/// `newsstand login` / `logout` / `logins`, a login given in a feed URL, and the promise that a password
/// shows up nowhere but in the private credentials file.
final class LoginEndToEndTests: EndToEndTestCase {
    var credentialsFile: URL { home.appendingPathComponent(".local/share/newsstand/credentials") }

    func run(_ arguments: [String], input: String = "", environment: [String: String]) throws -> (status: Int32, output: String, errors: String) {
        try TestEnvironment.run(arguments, input: input, environment: environment)
    }

    func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) ?? -1
    }

    func testLoginFromStandardInputThenListAndLogout() throws {
        let environment = TestEnvironment.environment(home: home)
        let login = try run(["login", "http://127.0.0.1:8080/feed.xml", "--user", "alice", "--password-stdin"], input: "hunter2 horse\nsecond line\n",
                            environment: environment)
        XCTAssertEqual(login.status, 0, login.errors)
        XCTAssertEqual(login.output, "Saved the login for alice at 127.0.0.1:8080.\n")
        XCTAssertEqual(login.errors, "")
        XCTAssertEqual(try mode(credentialsFile), 0o600)
        let text = try String(contentsOf: credentialsFile, encoding: .utf8)
        XCTAssertTrue(text.contains("127.0.0.1:8080\t\talice\thunter2 horse\n"), "the first line of stdin is the password: \(text)")
        XCTAssertFalse(text.contains("second line"))

        let again = try run(["login", "127.0.0.1:8080", "--user", "alice", "--password-stdin"], input: "newer", environment: environment)
        XCTAssertEqual(again.status, 0, again.errors)
        XCTAssertEqual(try run(["login", "https://alice:url%20pw@Library.Example/opds", "--user", "bob"], environment: environment).output,
                       "Saved the login for bob at library.example.\n", "a password in the URL is taken; --user wins over its user")
        let logins = try run(["logins"], environment: environment)
        XCTAssertEqual(logins.output, "127.0.0.1:8080   alice\nlibrary.example  bob\n", "one login per host; no passwords")
        XCTAssertEqual(try run(["logout", "127.0.0.1"], environment: environment).output, "Forgot the login for 127.0.0.1 (alice).\n")
        XCTAssertEqual(try run(["logout", "127.0.0.1:8080"], environment: environment).output, "No login was saved for 127.0.0.1:8080.\n")
        XCTAssertEqual(try run(["logout", "https://library.example/anything"], environment: environment).output, "Forgot the login for library.example (bob).\n")
        XCTAssertEqual(try run(["logins"], environment: environment).output, "No logins are saved (newsstand login URL saves one).\n")
        XCTAssertEqual(try mode(credentialsFile), 0o600)
    }

    func testWithoutATerminalLoginSaysHowToGiveWhatIsMissing() throws {
        let environment = TestEnvironment.environment(home: home)
        let noUser = try run(["login", "example.com"], environment: environment)
        XCTAssertEqual(noUser.status, 1)
        XCTAssertEqual(noUser.errors, "newsstand: there is no terminal to ask on for the user: give it with --user NAME\n")
        let noPassword = try run(["login", "example.com", "--user", "alice"], environment: environment)
        XCTAssertEqual(noPassword.status, 1)
        XCTAssertEqual(noPassword.errors, "newsstand: there is no terminal to ask on: pipe the password in with --password-stdin\n")
        let emptyInput = try run(["login", "example.com", "--user", "alice", "--password-stdin"], input: "", environment: environment)
        XCTAssertEqual(emptyInput.status, 1)
        XCTAssertEqual(emptyInput.errors, "newsstand: no password given; nothing was saved\n")
        let notAHost = try run(["login", "http:///feed"], environment: environment)
        XCTAssertEqual(notAHost.status, 2)
        XCTAssertTrue(notAHost.errors.contains("is not a server"), notAHost.errors)
        XCTAssertFalse(FileManager.default.fileExists(atPath: credentialsFile.path), "nothing was saved")
    }

    func testACredentialsFileOthersCanReadIsRefusedAndKept() throws {
        let environment = TestEnvironment.environment(home: home)
        XCTAssertEqual(try run(["login", "example.com", "--user", "alice", "--password-stdin"], input: "hunter2\n", environment: environment).status, 0)
        XCTAssertEqual(chmod(credentialsFile.path, 0o644), 0)
        let before = try Data(contentsOf: credentialsFile)
        for arguments in [["logins"], ["logout", "example.com"], ["login", "other.example", "--user", "bob", "--password-stdin"]] {
            let result = try run(arguments, input: "pw\n", environment: environment)
            XCTAssertEqual(result.status, 1, "\(arguments)")
            XCTAssertTrue(result.errors.contains("are ignored: other users can read or change it (mode 644); if it is yours, make it private with `chmod 600 \(credentialsFile.path)`"),
                          "\(arguments): \(result.errors)")
            XCTAssertFalse(result.errors.contains("hunter2"))
        }
        XCTAssertEqual(try Data(contentsOf: credentialsFile), before)
        XCTAssertEqual(chmod(credentialsFile.path, 0o600), 0)
        XCTAssertEqual(try run(["logins"], environment: environment).output, "example.com  alice\n")
    }

    func testTheTypedPasswordIsNotEchoedAndCtrlCRestoresEcho() throws {
        let environment = TestEnvironment.environment(home: home)
        let binary = try TestEnvironment.binary().path
        let session = try TmuxSession(command: "sh", environment: environment)
        try session.send("\(binary) login http://127.0.0.1:8080/; echo exited-$?", "Enter")
        try session.waitFor(text: "User for 127.0.0.1:8080:")
        try session.send("-l", "alice")
        try session.send("Enter")
        try session.waitFor(text: "Password for alice at 127.0.0.1:8080:")
        XCTAssertEqual(try terminalEcho(session), "-echo", "echo is off while the password is typed")
        try session.send("-l", "hunter2 horse")
        usleep(300_000)
        XCTAssertFalse(try session.screen().contains("hunter2"))
        try session.send("Enter")
        let saved = try session.waitFor(text: "exited-0")
        XCTAssertTrue(saved.contains("Saved the login for alice at 127.0.0.1:8080."), saved)
        XCTAssertFalse(saved.contains("hunter2"))
        XCTAssertEqual(try terminalEcho(session), "echo")
        XCTAssertTrue(try String(contentsOf: credentialsFile, encoding: .utf8).contains("\talice\thunter2 horse\n"))

        try session.send("\(binary) login example.com --user bob", "Enter")
        try session.waitFor(text: "Password for bob at example.com:")
        try session.send("-l", "half-typed")
        try session.send("C-c")
        usleep(300_000)
        try session.send("echo status-$?", "Enter")   // the shell drops the rest of an interrupted line, so ask afterwards
        let interrupted = try session.waitFor(text: "status-130")
        XCTAssertFalse(interrupted.contains("half-typed"))
        XCTAssertEqual(try terminalEcho(session), "echo", "Ctrl-C leaves the terminal echoing again")
        XCTAssertFalse(try String(contentsOf: credentialsFile, encoding: .utf8).contains("bob"), "an interrupted login saves nothing")
    }

    /// `echo` or `-echo`: the pane's terminal setting, read from outside with `stty -F`.
    func terminalEcho(_ session: TmuxSession) throws -> String? {
        let result = try TestEnvironment.run(executable: URL(fileURLWithPath: "/bin/stty"), ["-F", try session.paneTTY(), "-a"], environment: [:])
        return result.output.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).first { $0 == "echo" || $0 == "-echo" }.map(String.init)
    }

    /// The acceptance test of the credential store: logins given to `login`, in a `subscribe` URL and in the
    /// shelf's add-subscription field reach the credentials file (0600) and nothing else the program shows or writes.
    func testPasswordsAppearNowhereButTheCredentialsFile() throws {
        let server = try startSampleServer()
        let weekly = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>Title</key><string>Weekly</string><key>Issues</key><array>"#
            + "<dict><key>Name</key><string>2025-spring</string><key>Title</key><string>Spring</string><key>Date</key><date>2026-01-01T00:00:00Z</date>"
            + "<key>Content</key><string>issues/2025-spring.epub</string></dict></array></dict></plist>"
        server.setResource("/weekly.plist", data: Data(weekly.utf8), contentType: "application/xml")
        let port = try XCTUnwrap(server.url(for: "catalog.plist").port)
        let environment = TestEnvironment.environment(home: home)
        // Each secret as typed (decoded) and as it would sit in a URL (percent-encoded).
        let secrets = ["Login-Pw-1", "p@ss w0rd/2", "Tui-s3cret-3"]
        let forms = secrets + ["p%40ss%20w0rd%2F2", "p@ss%20w0rd"]
        var outputs: [String] = []
        func check(_ result: (status: Int32, output: String, errors: String), _ what: String) {
            outputs.append("\(what): \(result.output)\(result.errors)")
        }

        let login = try run(["login", "library.example", "--user", "carol", "--password-stdin"], input: secrets[0] + "\n", environment: environment)
        XCTAssertEqual(login.status, 0, login.errors)
        check(login, "login")
        let subscribe = try run(["subscribe", "http://alice:p%40ss%20w0rd%2F2@127.0.0.1:\(port)/catalog.plist"], environment: environment)
        XCTAssertEqual(subscribe.status, 0, subscribe.errors)
        XCTAssertTrue(subscribe.output.hasPrefix("Saved the login for alice at 127.0.0.1:\(port).\nSubscribed to Kettle & Compass"), subscribe.output)
        check(subscribe, "subscribe")
        var credentials = try String(contentsOf: credentialsFile, encoding: .utf8)
        XCTAssertTrue(credentials.contains("127.0.0.1:\(port)\t\talice\tp@ss w0rd/2\n"), credentials)
        let failing = try run(["subscribe", "http://alice:p%40ss%20w0rd%2F2@127.0.0.1:\(port)/missing.plist"], environment: environment)
        XCTAssertEqual(failing.status, 1)
        XCTAssertTrue(failing.errors.contains("cannot subscribe to http://127.0.0.1:\(port)/missing.plist: "), failing.errors)
        check(failing, "failed subscribe")

        // The shelf: add a subscription with a login typed in its URL, watching every screen.
        var screens: [String] = []
        let session = try TmuxSession(command: try TestEnvironment.binary().path, width: 110, height: 30, environment: environment)
        screens.append(try session.waitFor(text: "Kettle"))
        try session.send("s")
        screens.append(try session.waitFor(text: "SUBSCRIPTIONS"))
        try session.send("a")
        try session.send("-l", "http://bob:Tui-s3cret-3@127.0.0.1:\(port)/weekly.plist")
        let typed = try session.waitFor(text: "weekly.plist")
        XCTAssertTrue(typed.contains("Feed URL: http://bob:••••••••••••@127.0.0.1:\(port)/weekly.plist"), typed)
        screens.append(typed)
        try session.send("Enter")
        screens.append(try session.waitFor(text: "Subscribed to Weekly."))
        try session.send("q", "q")
        session.waitForExit()
        credentials = try String(contentsOf: credentialsFile, encoding: .utf8)
        XCTAssertTrue(credentials.contains("127.0.0.1:\(port)\t\tbob\tTui-s3cret-3\n"), "the shelf saved it, replacing alice's: \(credentials)")
        XCTAssertTrue(credentials.contains("library.example\t\tcarol\tLogin-Pw-1\n"), credentials)
        XCTAssertEqual(try mode(credentialsFile), 0o600)

        for arguments in [["subscriptions", "--json"], ["list", "--json"], ["export"], ["logins"], ["subscriptions"], ["list"], ["sync"]] {
            let result = try run(arguments, environment: environment)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.errors)")
            check(result, arguments.joined(separator: " "))
        }
        let json = try run(["subscriptions", "--json"], environment: environment).output
        XCTAssertTrue(json.contains("127.0.0.1:\(port)\\/catalog.plist") || json.contains("127.0.0.1:\(port)/catalog.plist"), json)
        XCTAssertFalse(json.contains("alice") || json.contains("bob@"), "no user names in feed URLs either: \(json)")

        for text in screens + outputs {
            for form in forms { XCTAssertFalse(text.contains(form), "“\(form)” shown in: \(text)") }
        }
        // Every file the program wrote but the credentials file: the database and its -wal/-shm, the config, the cache.
        var checked = 0
        let files = FileManager.default.enumerator(at: home, includingPropertiesForKeys: [.isRegularFileKey])!
        for case let file as URL in files where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            guard file.standardizedFileURL.path != credentialsFile.standardizedFileURL.path else { continue }
            let bytes = try Data(contentsOf: file)
            checked += 1
            for form in forms {
                XCTAssertNil(bytes.range(of: Data(form.utf8)), "“\(form)” is in \(file.path)")
            }
        }
        XCTAssertGreaterThan(checked, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.appendingPathComponent(".local/share/newsstand/library.sqlite").path))
    }
}

import Foundation
import NewsstandCore
import NewsstandTestSupport
import XCTest

/// `make install` and `make uninstall` into a DESTDIR staging tree, with the debug binary the tests run (so no
/// release build is needed): the installed program finds its sample library and themes from its own path, with
/// an empty HOME and no NEWSSTAND_* variable, and uninstalling leaves no file behind.
final class InstallTests: EndToEndTestCase {
    func testInstalledProgramRunsFromTheStagingTreeAndUninstallLeavesNoFile() throws {
        let stage = try TestFiles.scratchFolder(for: self)
        let binary = try TestEnvironment.binary()
        let install = try Self.make(["install", "DESTDIR=\(stage.path)", "PREFIX=/opt/news", "BINARY=\(binary.path)"])
        XCTAssertEqual(install.status, 0, install.errors)

        let installed = Self.regularFiles(below: stage)
        let expected = ["opt/news/bin/newsstand",
                        "opt/news/share/newsstand/Themes/dark.theme", "opt/news/share/newsstand/Themes/paper.theme",
                        "opt/news/share/newsstand/SampleLibrary/catalog.plist",
                        "opt/news/share/newsstand/SampleLibrary/issues/2026-autumn.epub",
                        "opt/news/share/newsstand/SampleLibrary/covers/2026-autumn.png"]
        for path in expected { XCTAssertTrue(installed.contains(path), "\(path) was not installed; installed: \(installed)") }
        XCTAssertFalse(installed.contains { $0.contains("SampleLibrary/source/") }, "the sample's build sources are not installed")
        let program = stage.appendingPathComponent("opt/news/bin/newsstand")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: program.path))

        // Nothing points the program at its files: no NEWSSTAND_* variable, an empty HOME, and a binary far from the checkout.
        var environment = TestEnvironment.environment(home: home)
        environment = environment.filter { !$0.key.hasPrefix("NEWSSTAND_") }

        let version = try TestEnvironment.run(executable: program, ["--version"], environment: environment)
        XCTAssertEqual(version.status, 0, version.errors)
        XCTAssertTrue(version.output.hasPrefix("newsstand \(NewsstandVersion.string) (commit "), version.output)
        if let head = Self.gitHead() {
            XCTAssertTrue(version.output.contains("(commit \(head)"), "--version names the commit built, \(head): \(version.output)")
        } else {
            XCTAssertNotNil(version.output.range(of: #"\(commit ([0-9a-f]{12}|unknown)"#, options: .regularExpression), version.output)
        }

        // The paper theme exists only in the installed Themes/: the shelf opening with it shows they were found.
        let session = try TmuxSession(command: "\(program.path) --theme paper", environment: environment)
        let shelf = try session.waitFor(text: "TAP TO DOWNLOAD")
        XCTAssertTrue(shelf.contains("Kettle & Compass"), shelf)
        XCTAssertTrue(shelf.contains("Maps & Margins"), shelf)
        try session.send("q")
        session.waitForExit()

        let subscriptions = try TestEnvironment.run(executable: program, ["subscriptions", "--json"], environment: environment)
        XCTAssertTrue(subscriptions.output.contains(stage.appendingPathComponent("opt/news/share/newsstand/SampleLibrary/catalog.plist").path),
                      "the sample subscribed is the installed one: \(subscriptions.output)")

        // An unknown theme is refused, naming where themes were looked for: the installed folder among them.
        // (The shell sleeps after it, so the pane is still there to read when the program has exited.)
        let refused = try TmuxSession(command: "\(program.path) --theme no-such-theme; sleep 30", width: 400, height: 10, environment: environment)
        let refusal = try refused.waitFor(text: "not found")
        XCTAssertTrue(refusal.contains(stage.appendingPathComponent("opt/news/share/newsstand/Themes").path), refusal)

        let uninstall = try Self.make(["uninstall", "DESTDIR=\(stage.path)", "PREFIX=/opt/news"])
        XCTAssertEqual(uninstall.status, 0, uninstall.errors)
        XCTAssertEqual(Self.regularFiles(below: stage), [], "make uninstall left files behind")
    }

    /// Runs `make` in the package root.
    static func make(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let make = try TestRequirement.program("make", package: "make")
        return try TestEnvironment.run(executable: URL(fileURLWithPath: make), ["-s", "-C", TestFiles.packageRoot.path] + arguments,
                                       environment: ProcessInfo.processInfo.environment)
    }

    /// Every file (not folder) below `folder`, relative to it, sorted.
    static func regularFiles(below folder: URL) -> [String] {
        TestFiles.listing(of: folder).filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder) && !isFolder.boolValue
        }
    }

    /// The checkout's commit, as `--version` writes it (12 digits), when the package is a git clone.
    static func gitHead() -> String? {
        guard FileManager.default.fileExists(atPath: TestFiles.packageRoot.appendingPathComponent(".git").path),
              let git = ["/usr/bin/git", "/usr/local/bin/git"].first(where: FileManager.default.isExecutableFile(atPath:)),
              let result = try? TestEnvironment.run(executable: URL(fileURLWithPath: git),
                                                    ["-C", TestFiles.packageRoot.path, "rev-parse", "--short=12", "HEAD"],
                                                    environment: ProcessInfo.processInfo.environment),
              result.status == 0 else { return nil }
        let head = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return head.isEmpty ? nil : head
    }
}

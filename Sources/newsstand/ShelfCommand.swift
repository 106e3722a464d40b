import Foundation
import LocalHTTPServer
import NewsstandCore
import NewsstandImaging
import NewsstandTerminal
import NewsstandUI

/// `newsstand [--theme NAME] [--cover-mode MODE] [--demo]`: opens the shelf in the terminal.
enum ShelfCommand {
    static func run(_ arguments: inout ArgumentList) throws -> Never {
        let themeOption = arguments.option("--theme")
        let coverModeOption = try arguments.option("--cover-mode").map { text -> CoverArtMode? in
            if text == "auto" { return nil }
            guard let mode = CoverArtMode(rawValue: text) else { throw UsageError("--cover-mode takes auto, ascii, ascii-color or blocks, not '\(text)'") }
            return mode
        }
        let demo = arguments.flag("--demo")
        try arguments.finish()
        guard isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 else {
            throw CommandFailure("the shelf needs a terminal; for scripts use `newsstand list`, `download` and `read`")
        }
        var environment = ProcessInfo.processInfo.environment
        var server: LocalHTTPServer?
        if demo {
            let (demoEnvironment, demoServer) = try DemoMode.prepare(environment)
            environment = demoEnvironment
            server = demoServer
        }
        var context = try LibraryContext.open(environment: environment)
        if let coverModeOption { context.configuration.coverMode = coverModeOption }
        let theme = try loadTheme(named: themeOption ?? context.configuration.theme, paths: context.paths, environment: environment)
        let colorsEnabled = (environment["NO_COLOR"] ?? "").isEmpty
        let app = TerminalApp(store: context.store, paths: context.paths, configuration: context.configuration,
                              theme: colorsEnabled ? theme : theme.withoutColors(), colorsEnabled: colorsEnabled)
        withExtendedLifetime(server) { app.run() }
    }

    static func loadTheme(named name: String, paths: LibraryPaths, environment: [String: String]) throws -> Theme {
        var directories = [paths.userThemesDirectory]
        if let bundled = ResourceLocator.themes(environment) { directories.append(bundled) }
        do {
            return try ThemeLoader(searchDirectories: directories).load(name)
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}

/// `--demo`: a throwaway library in a temporary folder, subscribed to the sample library served
/// over HTTP on 127.0.0.1 at a throttled rate, so progress bars can be watched.
enum DemoMode {
    /// Slow enough that a sample issue takes a few seconds: the progress bars are what the demo is for.
    static let bytesPerSecond = 48 * 1024

    static func prepare(_ environment: [String: String]) throws -> ([String: String], LocalHTTPServer) {
        guard let sample = ResourceLocator.sampleLibrary(environment) else {
            throw CommandFailure("--demo needs the SampleLibrary folder (set NEWSSTAND_SAMPLE_LIBRARY)")
        }
        let server = LocalHTTPServer(root: sample)
        server.bytesPerSecond = bytesPerSecond
        try server.start()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-demo-\(getpid())", isDirectory: true)
        var demoEnvironment = environment
        demoEnvironment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        demoEnvironment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        let context = try LibraryContext.open(environment: demoEnvironment.merging(["NEWSSTAND_SAMPLE_LIBRARY": "/nonexistent"]) { $1 })
        try context.store.setSetting(LibraryContext.sampleOfferedSetting, to: "yes")
        _ = try PublicationRefresher(store: context.store).subscribe(to: server.url(for: "catalog.plist"))
        context.store.close()
        return (demoEnvironment, server)
    }
}

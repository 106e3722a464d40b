import Foundation
import LocalHTTPServer
import NewsstandCore
import NewsstandImaging
import NewsstandRuntime
import NewsstandTerminal
import NewsstandUI
import Synchronization

/// `newsstand [--theme NAME] [--cover-mode MODE] [--screen-reader] [--demo]`: opens the shelf in the terminal.
enum ShelfCommand {
    static func run(_ arguments: inout ArgumentList) throws -> Never {
        // The keys and themes are read on another thread (`KeysAndTheme`) once the config is: its first use of the global
        // queue would start a thread then, nearly a millisecond on a busy two-core machine. Started now, it is ready.
        DispatchQueue.global(qos: .userInteractive).async {}
        let themeOption = arguments.option("--theme")
        let coverModeOption = try arguments.option("--cover-mode").map { text -> CoverModeSetting in
            guard let mode = CoverModeSetting(rawValue: text) else { throw UsageError("--cover-mode takes \(CoverModeSetting.spelledOut), not '\(text)'") }
            return mode
        }
        let screenReader = arguments.flag("--screen-reader")
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
        // With the theme following the terminal's background (`auto`, the default) the terminal will be asked, so the
        // questions go out now and their answers are read once the library is open: the round trip runs meanwhile.
        // Outside tmux only: inside, tmux is asked first whether the questions may pass.
        let paths = LibraryPaths.fromEnvironment(environment)
        let configuration = Configuration.load(from: paths.configFile)
        let followsBackground = (themeOption ?? configuration.theme) == ThemeChoice.automaticName
        let insideTmux = !(environment["TMUX"] ?? "").isEmpty
        let questions = followsBackground && !insideTmux ? TerminalQuestions.send() : nil
        // Inside tmux with the theme following the background, the first frame waits for the answers, which need tmux's
        // word that the questions may pass: tmux is asked now, while the library opens. With a fixed theme only pictures
        // depend on the answers, and tmux and the terminal are asked after the first frame (`TerminalApp`).
        let tmuxCheck = followsBackground && insideTmux ? TmuxPassthroughCheck(environment: environment) : nil
        // Stopping with an error below: the answers are read and the terminal's input restored first.
        defer { questions?.finish() }
        StartupTrace.mark("config read")
        let keysAndTheme = KeysAndTheme(configuration: configuration, themeName: themeOption ?? configuration.theme,
                                        paths: paths, environment: environment)
        var context = try LibraryContext.open(environment: environment, paths: paths, configuration: configuration)
        StartupTrace.mark("library opened")
        if let coverModeOption { context.configuration.coverMode = coverModeOption == .auto ? nil : coverModeOption }
        if screenReader { context.configuration.screenReader = true }
        let (keys, theme) = try keysAndTheme.result()
        let colorsEnabled = (environment["NO_COLOR"] ?? "").isEmpty
        StartupTrace.mark("keys and theme loaded")
        // The command line runs on the main thread, where the interface lives (the main actor).
        MainActor.assumeIsolated {
            let app = TerminalApp(store: context.store, paths: context.paths, configuration: context.configuration, keys: keys,
                                  theme: colorsEnabled ? theme : theme.withoutColors(), colorsEnabled: colorsEnabled, tmuxCheck: tmuxCheck,
                                  questions: questions, environment: environment)
            StartupTrace.mark("app created")
            withExtendedLifetime(server) { app.run() }
        }
        fatalError("the interface returned")
    }

    /// The key bindings and the theme, read on another thread while the library opens on this one (together about a
    /// millisecond, most of it parsing the theme files): `result()` waits for them.
    private final class KeysAndTheme: Sendable {
        private let done = DispatchGroup()
        /// Set once on the other thread before `done` is left; read after waiting for it.
        private let outcome = Mutex<Result<(KeyTable, ThemeChoice), any Error>?>(nil)

        init(configuration: Configuration, themeName: String, paths: LibraryPaths, environment: [String: String]) {
            DispatchQueue.global(qos: .userInteractive).async(group: done) {
                let result = Result { (try ShelfCommand.keyTable(configuration),
                                       try ShelfCommand.themeChoice(named: themeName, paths: paths, environment: environment)) }
                self.outcome.withLock { $0 = result }
            }
        }

        func result() throws -> (KeyTable, ThemeChoice) {
            done.wait()
            return try outcome.withLock { $0! }.get()
        }
    }

    /// The keys in effect: the config's `bind` and `unbind` lines applied, or a failure naming every line that cannot apply.
    static func keyTable(_ configuration: Configuration) throws -> KeyTable {
        do {
            return try KeyTable(lines: configuration.keyBindingLines)
        } catch {
            throw CommandFailure("the key bindings of the config cannot apply:\n\(error)")
        }
    }

    /// The theme named, or for `auto` the two the terminal's background chooses between (`dark` and `paper`).
    static func themeChoice(named name: String, paths: LibraryPaths, environment: [String: String]) throws -> ThemeChoice {
        guard name == ThemeChoice.automaticName else { return .fixed(try loadTheme(named: name, paths: paths, environment: environment)) }
        return .followingBackground(dark: try loadTheme(named: ThemeChoice.darkName, paths: paths, environment: environment),
                                    light: try loadTheme(named: ThemeChoice.lightName, paths: paths, environment: environment))
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

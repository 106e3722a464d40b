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
        // When the first frame waits for the terminal's answers (the theme following its background, `auto`, the
        // default; or covers that may be pictures) the questions go out now, and their answers are read once the library
        // is open (or the last run's shelf drawn): the round trip runs meanwhile. Outside tmux only: inside, tmux is asked
        // first whether the questions may pass.
        let paths = LibraryPaths.fromEnvironment(environment)
        // Read once: parsed here, and part of the start's fingerprint (`LastShelf`).
        let configText = SettingsFileText.contents(of: paths.configFile)
        let configuration = Configuration.load(text: configText, of: paths.configFile)
        let followsBackground = (themeOption ?? configuration.theme) == ThemeChoice.automaticName
        let insideTmux = !(environment["TMUX"] ?? "").isEmpty
        let colorsEnabled = (environment["NO_COLOR"] ?? "").isEmpty
        let coverSetting = coverModeOption.map { $0 == .auto ? nil : $0 } ?? configuration.coverMode
        let asksFirst = TerminalQuestions.areAskedBeforeTheFirstFrame(followsBackground: followsBackground, coverSetting: coverSetting,
                                                                      colorsEnabled: colorsEnabled, environment: environment)
        let questions = asksFirst && !insideTmux ? TerminalQuestions.send() : nil
        // Stopping with an error below: the answers are read and the terminal's input restored first.
        defer { questions?.finish() }
        StartupTrace.mark("config read")
        let themeName = themeOption ?? configuration.theme
        // The theme files too are read once: fingerprinted here, parsed on the keys' and themes' thread.
        let themes = themeLoader(paths: paths, environment: environment)
        let themeTexts = themeFiles(for: themeName).map(themes.text(of:))
        let keysAndTheme = KeysAndTheme(configuration: configuration, themeName: themeName, themeTexts: themeTexts, themes: themes)
        // The shelf as the last run left it, drawn now when nothing it depends on changed and the terminal's answers (if
        // it waits for them) are in and the same (a throwaway demo library has none).
        let lastShelf = demo ? nil : MainActor.assumeIsolated {
            let options = [themeOption ?? "", coverModeOption?.rawValue ?? "", screenReader ? "screen reader" : ""]
            let fingerprint = StartFingerprint(build: "\(NewsstandVersion.string) \(BuildCommit.hash)", options: options,
                                               environment: environment, configText: configText, themeTexts: themeTexts)
            let shelf = LastShelf(paths: paths, fingerprint: fingerprint)
            shelf.showBeforeTheLibrary(colorsEnabled: colorsEnabled, environment: environment, questions: questions)
            return shelf
        }
        // Inside tmux with the theme following the background, the interface's first frame waits for the answers, which
        // need tmux's word that the questions may pass: tmux is asked now, while the library opens, once the last run's
        // shelf is on the screen (its client's start would take the machine from drawing it). With a fixed theme only
        // pictures depend on the answers, and tmux and the terminal are asked after the first frame (`TerminalApp`).
        let tmuxCheck = followsBackground && insideTmux ? TmuxPassthroughCheck(environment: environment) : nil
        let context: LibraryContext
        let keys: KeyTable
        let theme: ThemeChoice
        do {
            var opened = try LibraryContext.open(environment: environment, paths: paths, configuration: configuration)
            StartupTrace.mark("library opened")
            opened.configuration.coverMode = coverSetting
            if screenReader { opened.configuration.screenReader = true }
            context = opened
            (keys, theme) = try keysAndTheme.result()
        } catch {
            MainActor.assumeIsolated { lastShelf?.stop() }
            throw error
        }
        StartupTrace.mark("keys and theme loaded")
        // The command line runs on the main thread, where the interface lives (the main actor).
        MainActor.assumeIsolated {
            let app = TerminalApp(store: context.store, paths: context.paths, configuration: context.configuration, keys: keys,
                                  theme: colorsEnabled ? theme : theme.withoutColors(), colorsEnabled: colorsEnabled, tmuxCheck: tmuxCheck,
                                  questions: questions, lastShelf: lastShelf, environment: environment)
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

        /// `themeTexts`: the files of `themeName` (of `auto`'s two, dark then light), as read.
        init(configuration: Configuration, themeName: String, themeTexts: [String?], themes: ThemeLoader) {
            DispatchQueue.global(qos: .userInteractive).async(group: done) {
                let result = Result { (try ShelfCommand.keyTable(configuration),
                                       try ShelfCommand.themeChoice(named: themeName, texts: themeTexts, themes: themes)) }
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

    /// The themes a theme setting uses: the one named, or for `auto` the two the terminal's background chooses between
    /// (`dark` and `paper`, in that order).
    static func themeFiles(for name: String) -> [String] {
        name == ThemeChoice.automaticName ? [ThemeChoice.darkName, ThemeChoice.lightName] : [name]
    }

    /// The theme named, or for `auto` its two, from the texts of `themeFiles(for: name)` as read (in that order).
    static func themeChoice(named name: String, texts: [String?], themes: ThemeLoader) throws -> ThemeChoice {
        let loaded = try zip(themeFiles(for: name), texts).map { try loadTheme(named: $0, text: $1, themes: themes) }
        return name == ThemeChoice.automaticName ? .followingBackground(dark: loaded[0], light: loaded[1]) : .fixed(loaded[0])
    }

    static func loadTheme(named name: String, text: String?, themes: ThemeLoader) throws -> Theme {
        do {
            return try themes.load(name, text: text)
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// Themes by name: the user's themes folder first, then the bundled ones.
    private static func themeLoader(paths: LibraryPaths, environment: [String: String]) -> ThemeLoader {
        var directories = [paths.userThemesDirectory]
        if let bundled = ResourceLocator.themes(environment) { directories.append(bundled) }
        return ThemeLoader(searchDirectories: directories)
    }
}

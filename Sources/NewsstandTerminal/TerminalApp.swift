import CNcursesw
import Dispatch
import Foundation
import NewsstandCore
import NewsstandImaging
import NewsstandRuntime
import NewsstandUI

/// Runs the interactive newsstand: owns the terminal and the UI loop on the main thread.
///
/// Keys arrive through a read source on stdin, resizes and termination signals through
/// Dispatch signal sources, and background work through messages hopped onto the main queue.
/// Each message runs `AppUpdate.update`; one frame is drawn after a burst of messages.
/// Confined to the main thread (the main actor): other threads only ever enqueue work on the main queue, whose
/// callbacks step onto the main actor (`MainActor.assumeIsolated`: they run on the main thread).
@MainActor
public final class TerminalApp {
    private let backend: CursesBackend
    /// The theme drawn with: the user's, or (`auto`) the one the terminal's background chose at `run()`.
    private var theme: Theme
    private let themeChoice: ThemeChoice
    private var state: AppState
    private let runner: EffectRunner
    /// Where the runner's messages go: this app, once it is made (they are handled on the main queue, after `run()`).
    private let inbox = MessageInbox()
    private var sources: [DispatchSourceProtocol] = []
    private var isRenderScheduled = false
    /// The first catalog refresh starts a moment after the first complete shelf is drawn (`firstRefreshDelay`), so
    /// its eight fetching threads never compete with drawing it or with the first keys.
    private var hasStartedBackgroundWork = false
    /// Until the library's first answers are in, frames are held back (for at most `firstFrameWait`), so the first
    /// frame drawn is the complete shelf rather than "Opening the library…" and rows of "…" a moment before it.
    private var isShelfComplete = false
    private var hasDrawnFrame = false
    /// Whether the library has been reconciled with the disk and interrupted downloads resumed (`resumeDownloadsOnce`).
    private var hasResumedDownloads = false
    private static let firstFrameWait: DispatchTimeInterval = .milliseconds(150)
    /// How long the work that follows the first frame (the reconcile, asking tmux and the terminal) waits after it.
    private static let afterFirstFrameDelay: DispatchTimeInterval = .milliseconds(50)
    private static let firstRefreshDelay: DispatchTimeInterval = .seconds(2)
    /// Seconds between automatic catalog refreshes; 0 for none.
    private let refreshInterval: TimeInterval
    /// The user's `cover-mode` (nil: auto), else the theme's, and the colours: pictures are chosen from them at `run()`.
    private var coverSetting: CoverModeSetting?
    private var colorMode: CursesBackend.ColorMode
    /// Whether tmux lets the start-up questions through: asked of tmux while the program starts when the first frame
    /// needs the answers, else when they are first needed (`passthroughCheck`).
    private var tmuxCheck: TmuxPassthroughCheck?
    /// Inside tmux with a fixed theme, nothing in the first frame depends on the terminal's answers (only pictures do):
    /// tmux and the terminal are asked once the first frame is on the screen, and the covers come a frame later.
    private var asksAfterFirstFrame = false
    /// The start-up questions when they went out before the library was opened (`TerminalQuestions`), else nil.
    private let earlyQuestions: TerminalQuestions?
    /// The process's environment as given at start (and `TERM` as changed for xterm).
    private var environment: [String: String]
    /// The shelf the last run left for this start (drawn before the library is read when it still holds), and the
    /// one this run leaves for the next, at quit.
    private let lastShelf: LastShelf?
    /// Reads the next start's first frame at quit.
    private let loader: LibraryLoader
    private let configuration: Configuration
    /// The theme and the colours a start begins with, before any answer from the terminal.
    private let startTheme: Theme
    private let startColorMode: CursesBackend.ColorMode
    /// Whether a start draws its first frame before asking the terminal anything (a fixed theme, and inside tmux or no
    /// pictures possible).
    private let startsBeforeAnswers: Bool
    /// The answers the first frame was drawn after (`StartFingerprint.answers(of:)`), kept with the next start's frame.
    private var firstAnswers: UInt64?

    /// `environment` is the process's, read once by the caller: `ProcessInfo.environment` builds it anew on every call.
    public init(store: LibraryStore, paths: LibraryPaths, configuration: Configuration, keys: KeyTable = .standard, theme themeChoice: ThemeChoice,
                colorsEnabled: Bool, tmuxCheck: TmuxPassthroughCheck? = nil, questions: TerminalQuestions? = nil, lastShelf: LastShelf? = nil,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
        self.lastShelf = lastShelf
        self.configuration = configuration
        loader = LibraryLoader(store: store)
        let inbox = inbox
        runner = EffectRunner(store: store, paths: paths, configuration: configuration) { message in
            DispatchQueue.main.async { MainActor.assumeIsolated { inbox.app?.handle(message) } }
        }
        self.tmuxCheck = tmuxCheck
        earlyQuestions = questions
        let colorMode = colorsEnabled ? ColorModeDetector.detect(environment) : .none
        self.colorMode = colorMode
        startColorMode = colorMode
        // Until the terminal is asked, `auto` goes by COLORFGBG (else dark).
        let theme = themeChoice.theme(for: BackgroundChooser.choose(answer: nil, colorForegroundBackground: environment["COLORFGBG"]))
        self.themeChoice = themeChoice
        let coverSetting = Self.coverSetting(configuration, theme: theme)
        self.coverSetting = coverSetting
        backend = lastShelf?.startedBackend ?? CursesBackend(colorMode: colorMode)
        self.theme = theme
        startTheme = theme
        startsBeforeAnswers = !themeChoice.followsBackground
            && (!(environment["TMUX"] ?? "").isEmpty || !Self.mayShowPictures(colorMode: colorMode, coverSetting: coverSetting))
        refreshInterval = TimeInterval(configuration.refreshIntervalMinutes * 60)
        // The remembered settings are read first: the library's first read, started at the end of this initialiser,
        // holds the library until it is done. Then the library is read, on the runtime's queue, while the terminal is
        // set up; its answer waits on the main queue for the main loop. The shown shelf's window is read right after
        // it, as the interface will ask for it at the terminal's size: the first frame waits for that window, and asked
        // for from the main loop it came two thread hand-overs later (more than half a millisecond at 500 issues).
        let size = backend.size
        state = Self.startState(store: store, configuration: configuration, keys: keys, theme: theme, coverSetting: coverSetting,
                                colorMode: colorMode, environment: environment, width: size.width, height: size.height)
        let startState = state
        runner.readShownShelfAhead { AppUpdate.shownShelfRequest(after: $0, in: startState) }
        runner.perform(.loadLibrary)
        StartupTrace.mark("library load started")
        inbox.app = self
    }

    /// How covers are asked to be drawn with `theme`: the config's `cover-mode`, else the theme's (nil: auto).
    private static func coverSetting(_ configuration: Configuration, theme: Theme) -> CoverModeSetting? {
        configuration.coverMode ?? theme.coverMode.map(CoverModeSetting.init)
    }

    /// The state a start has before the library's first answers and the terminal's: the settings, the keys, the
    /// theme's lightness, covers as text, the shelf's remembered view, order and filter, at the terminal's size.
    private static func startState(store: LibraryStore, configuration: Configuration, keys: KeyTable, theme: Theme, coverSetting: CoverModeSetting?,
                                   colorMode: CursesBackend.ColorMode, environment: [String: String], width: Int, height: Int) -> AppState {
        let rememberedView = (try? store.setting(AppState.shelfViewSetting)).flatMap { $0.flatMap(ShelfViewMode.init(rawValue:)) }
        let rememberedSpeed = (try? store.setting(ReadingPace.setting)).flatMap { $0.flatMap(Double.init) }
        let rememberedOrder = (try? store.setting(AppState.shelfOrderSetting)).flatMap { $0.flatMap(ShelfView.Sort.init(rawValue:)) }
        let rememberedFilter = (try? store.setting(AppState.shelfFilterSetting)).flatMap { $0.flatMap(ShelfView.Filter.init(rawValue:)) }
        var state = AppState(width: width, height: height)
        state.isLightBackground = theme.isLight
        state.keys = keys
        state.screenReader = configuration.screenReader
        state.readingPace = ReadingPace(fixed: configuration.readingSpeed, remembered: rememberedSpeed)
        state.articleMeasure = configuration.measure
        state.fullTextDefault = configuration.fullText
        state.coverMode = PictureModeChooser.choose(setting: coverSetting, answers: TerminalAnswers(), colorMode: colorMode, environment: environment).text
        state.shelf.viewMode = rememberedView ?? .list
        state.library.view = ShelfView(sort: rememberedOrder ?? .newest, filter: rememberedFilter ?? .all)
        state.downloads.maxConcurrent = configuration.maxDownloads
        state.downloads.rateLimit = configuration.rateLimit
        return state
    }

    /// Takes over the terminal and runs until the user quits; never returns.
    public func run() -> Never {
        asksAfterFirstFrame = earlyQuestions == nil && !themeChoice.followsBackground && !(environment["TMUX"] ?? "").isEmpty
        // Started already when the last run's shelf was drawn before the library was opened (its answers, if any, read).
        let isStarted = lastShelf?.startedBackend != nil
        if !isStarted { CrashGuard.install(restoring: earlyQuestions?.modesBefore) }
        let typed = asksAfterFirstFrame ? [] : askTerminal()
        StartupTrace.mark("terminal asked")
        if !isStarted {
            backend.start()
            StartupTrace.mark("curses started")
        }
        backend.pushBack(typed: typed)
        // Read again: a resize since `init` (which sized the start state for the window read ahead) has no signal
        // source to report it yet.
        let size = backend.size
        state.width = size.width
        state.height = size.height
        installSources()
        DispatchQueue.main.asyncAfter(deadline: .now() + Self.firstFrameWait) { [unowned self] in
            MainActor.assumeIsolated {
                if !isShelfComplete {
                    isShelfComplete = true
                    render()
                }
            }
        }
        dispatchMain()
    }

    /// Asks the terminal what it shows and what its background is (only when `cover-mode` is `auto` or a picture
    /// protocol, or the theme is `auto`; inside tmux only when tmux lets the questions through), then chooses the
    /// theme and how pictures are shown. Returns the keys typed meanwhile. Questions already sent (`earlyQuestions`)
    /// are not asked again: their answers are read.
    private func askTerminal() -> [UInt8] {
        guard mayShowPictures || themeChoice.followsBackground else { return earlyQuestions.map { $0.read().typed } ?? [] }
        let insideTmux = !(environment["TMUX"] ?? "").isEmpty
        // Inside tmux only kitty pictures through passthrough can show: without it there is nothing to ask.
        guard earlyQuestions != nil || !insideTmux || passthroughCheck().allowsPassthrough else { return [] }
        let answers = earlyQuestions?.read() ?? TerminalQuery.ask(throughTmux: insideTmux)
        if !hasDrawnFrame { firstAnswers = StartFingerprint.answers(of: answers) }
        // xterm calls itself `xterm` (8 colours) to its programs: when it said it is xterm, use its 256 colours.
        if let better = ColorModeDetector.betterTerminalType(answers: answers, environment: environment, colorMode: colorMode) {
            setenv("TERM", better, 1)
            environment["TERM"] = better
            colorMode = .indexed
        }
        if themeChoice.followsBackground {
            theme = themeChoice.theme(for: BackgroundChooser.choose(answer: answers.background, colorForegroundBackground: environment["COLORFGBG"]))
            state.isLightBackground = theme.isLight
            coverSetting = Self.coverSetting(configuration, theme: theme)
            state.coverMode = PictureModeChooser.choose(setting: coverSetting, answers: TerminalAnswers(), colorMode: colorMode, environment: environment).text
        }
        guard mayShowPictures else { return answers.typed }
        let choice = PictureModeChooser.choose(setting: coverSetting, answers: answers, colorMode: colorMode, environment: environment)
        state.coverMode = choice.text
        state.pictureProtocol = choice.picture
        state.cellPixelSize = TerminalQuery.cellPixelSize(answers: answers)
        backend.usePictures(choice.picture, kittyPlaceholders: choice.kittyPlaceholders, throughTmux: PictureModeChooser.isInsideTmux(answers: answers, environment: environment),
                            background: answers.background ?? (theme.isLight ? .white : .black)) {
            // A picture's bytes are ready (encoded off this thread): draw again to show it.
            DispatchQueue.main.async { [weak self] in MainActor.assumeIsolated { self?.scheduleRender() } }
        }
        return answers.typed
    }

    /// Reconciles the library with the disk and resumes interrupted downloads, once: a moment after the first frame is
    /// flushed (`afterFirstFrameDelay`), or before the first key if one comes sooner (a key can start a download, which
    /// must come after the reconcile on the downloads' serial queue). Started with the library's first read, it held the
    /// library's lock against it and spun on it on the second core while the first frame waited.
    private func resumeDownloadsOnce() {
        guard !hasResumedDownloads else { return }
        hasResumedDownloads = true
        runner.resumeInterruptedDownloads()
        StartupTrace.mark("interrupted downloads resumed")
    }

    /// The tmux check, started now if it was not at launch.
    private func passthroughCheck() -> TmuxPassthroughCheck {
        if let tmuxCheck { return tmuxCheck }
        let check = TmuxPassthroughCheck(environment: environment)
        tmuxCheck = check
        return check
    }

    /// Whether covers may be pictures: colours, and `cover-mode` unset or a picture protocol.
    private var mayShowPictures: Bool { Self.mayShowPictures(colorMode: colorMode, coverSetting: coverSetting) }

    nonisolated static func mayShowPictures(colorMode: CursesBackend.ColorMode, coverSetting: CoverModeSetting?) -> Bool {
        colorMode != .none && (coverSetting == nil || coverSetting?.pictureProtocol != nil)
    }

    /// The questions put off until the first frame was drawn (`asksAfterFirstFrame`, so inside tmux). tmux is asked
    /// first whether they may pass, a tmux client's run (2–12 ms here, a second at most): its answer is awaited off the
    /// main thread, which goes on answering keys, and the terminal is asked once it is in.
    private func askTerminalAfterFirstFrame() {
        guard mayShowPictures else { return }
        let check = passthroughCheck()
        DispatchQueue.global(qos: .userInitiated).async { [weak self] in
            _ = check.allowsPassthrough
            DispatchQueue.main.async { MainActor.assumeIsolated { self?.askTerminalOnceTmuxAnswered() } }
        }
    }

    /// Asks the terminal (tmux's answer is in), gives back the keys typed meanwhile, and when the answers changed how
    /// covers are shown, asks for them again in that form and draws.
    private func askTerminalOnceTmuxAnswered() {
        let before = (state.coverMode, state.pictureProtocol, state.cellPixelSize)
        let typed = askTerminal()
        StartupTrace.mark("terminal asked after the first frame")
        backend.pushBack(typed: typed)
        if before != (state.coverMode, state.pictureProtocol, state.cellPixelSize) {
            // The same size again: every screen refits and the shelf asks for what it shows in the mode now chosen.
            handle(.resized(width: state.width, height: state.height))
        }
        if !typed.isEmpty { readKeys() }
    }

    private func installSources() {
        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        input.setEventHandler { [unowned self] in MainActor.assumeIsolated { readKeys() } }
        input.resume()
        // Keys typed while the terminal was being asked were given back to ncurses: read them now.
        DispatchQueue.main.async { [unowned self] in MainActor.assumeIsolated { readKeys() } }
        sources.append(input)
        for (signalNumber, action) in [(SIGWINCH, 0), (SIGINT, 1), (SIGTERM, 1), (SIGHUP, 1)] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
            source.setEventHandler { [unowned self] in
                MainActor.assumeIsolated {
                    if action == 0 { resized() } else { quit(status: 128 + signalNumber) }
                }
            }
            source.resume()
            sources.append(source)
        }
        let watch = DispatchSource.makeTimerSource(queue: .main)
        watch.schedule(deadline: .now(), repeating: 2, leeway: .milliseconds(500))
        watch.setEventHandler { [unowned self] in MainActor.assumeIsolated { runner.perform(.reloadLibraryIfChangedElsewhere) } }
        watch.resume()
        sources.append(watch)
        // Retry countdowns on the downloads screen go down once a second (only while there is one).
        let clock = DispatchSource.makeTimerSource(queue: .main)
        clock.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(100))
        clock.setEventHandler { [unowned self] in MainActor.assumeIsolated { if state.downloads.hasCountdown { handle(.clockTicked) } } }
        clock.resume()
        sources.append(clock)
        if refreshInterval > 0 {
            let timer = DispatchSource.makeTimerSource(queue: .main)
            timer.schedule(deadline: .now() + refreshInterval, repeating: refreshInterval, leeway: .seconds(5))
            timer.setEventHandler { [unowned self] in MainActor.assumeIsolated { runner.perform(.refreshPublications) } }
            timer.resume()
            sources.append(timer)
        }
    }

    private func readKeys() {
        for event in backend.readKeys() {
            switch event {
            case .key(let key): handle(.keyPressed(key))
            case .resized: resized()
            }
        }
    }

    private func resized() {
        let size = backend.size
        backend.resize(width: size.width, height: size.height)
        handle(.resized(width: size.width, height: size.height))
    }

    private func handle(_ message: Message) {
        // A key can start a download: the reconcile goes first, on the downloads' serial queue.
        if case .keyPressed = message { resumeDownloadsOnce() }
        state.clock = Date().timeIntervalSince1970
        let effects = AppUpdate.update(&state, message)
        runner.perform(effects)
        // `.quit` was carried out above: the runner has finished its saves.
        if !state.isRunning { quit(status: 0) }
        scheduleRender()
        if !hasStartedBackgroundWork, state.library.hasLoaded, state.library.requestedWindows.isEmpty {
            hasStartedBackgroundWork = true
            DispatchQueue.main.asyncAfter(deadline: .now() + Self.firstRefreshDelay) { [unowned self] in
                MainActor.assumeIsolated { runner.perform(.refreshPublications) }
            }
        }
    }

    /// Draws once after the messages already queued are handled, however many there are.
    private func scheduleRender() {
        if !isShelfComplete {
            // The shown shelf's window, not its neighbours' (read next on the library's queue while this frame is drawn).
            guard state.shared.isShownShelfReady else { return }
            isShelfComplete = true
        }
        guard !isRenderScheduled else { return }
        isRenderScheduled = true
        DispatchQueue.main.async { [unowned self] in
            MainActor.assumeIsolated {
                isRenderScheduled = false
                render()
            }
        }
    }

    private func render() {
        let frame = AppView.render(state, theme: theme)
        if !hasDrawnFrame { StartupTrace.mark("first frame laid out") }
        backend.draw(frame, cursor: AppView.cursor(state))
        if !hasDrawnFrame {
            hasDrawnFrame = true
            StartupTrace.mark("first frame flushed")
            // What follows the first frame waits a moment, so that the terminal has the machine to itself while it shows
            // the frame: asking tmux spawns a process, and the reconcile reads the library and the disk.
            DispatchQueue.main.asyncAfter(deadline: .now() + Self.afterFirstFrameDelay) { [unowned self] in
                MainActor.assumeIsolated {
                    resumeDownloadsOnce()
                    if asksAfterFirstFrame { askTerminalAfterFirstFrame() }
                }
            }
        }
    }

    /// Ends the program: the runner's pending saves first (the last reading position) and the library closed, then the
    /// terminal is restored.
    private func quit(status: Int32) -> Never {
        runner.finishPendingSaves()
        let nextShelf = lastShelf == nil ? nil : nextFirstFrame()
        runner.closeLibrary()
        backend.stop()
        lastShelf?.keep(nextShelf, width: state.width, height: state.height,
                        answers: startsBeforeAnswers ? nil : firstAnswers ?? StartFingerprint.noAnswers)
        exit(status)
    }

    /// The first frame of the next start in this terminal, from the library as it is now (every save made): the start's
    /// state, with what the terminal's answers decided this time when the start waits for them.
    private func nextFirstFrame() -> CellBuffer? {
        var start = Self.startState(store: loader.store, configuration: configuration, keys: state.keys, theme: startTheme,
                                    coverSetting: Self.coverSetting(configuration, theme: startTheme),
                                    colorMode: startColorMode, environment: environment, width: state.width, height: state.height)
        guard !startsBeforeAnswers else { return FirstShelfFrame.render(from: start, loader: loader, theme: startTheme) }
        start.isLightBackground = state.isLightBackground
        start.coverMode = state.coverMode
        start.pictureProtocol = state.pictureProtocol
        start.cellPixelSize = state.cellPixelSize
        return FirstShelfFrame.render(from: start, loader: loader, theme: theme)
    }
}

/// The app the runner's messages go to: set once the app is made, so the runner (and the library's first read) can
/// start before it is.
@MainActor
private final class MessageInbox {
    weak var app: TerminalApp?
}

import Foundation
import NewsstandCore
import NewsstandRuntime
import NewsstandUI

/// The shelf as the last run left it for this start: read and checked before the library is opened, drawn at once
/// when nothing it depends on has changed (`StartFingerprint`), and worked out again at quit for the next start.
///
/// A start draws it here, before the library is opened (`showBeforeTheLibrary`), and the interface then takes over the
/// started terminal: the frame kept before any answer when the first frame does not wait for the terminal's; the one
/// kept for the answers the early questions got (outside tmux); inside tmux, where tmux is asked first whether the
/// questions may pass, the one kept after the answers the last start got. The library is then read as always, and the
/// interface's own first frame replaces it (on the screen nothing changes when the two agree: only differences are drawn).
@MainActor
public final class LastShelf {
    let fingerprint: StartFingerprint
    private let paths: LibraryPaths
    /// This start's key (the terminal's size now, the library's files before this start opens them) and which kept
    /// frames are this way of starting's (`StartFingerprint.setup`).
    private let key: UInt64
    private let setup: UInt64
    /// The terminal's answers the frames kept for this way of starting were drawn after (nil: before any answer), the
    /// frame written last first.
    private let keptAnswers: [UInt64?]
    /// The terminal, started here to draw the kept frame before the library was opened.
    private(set) var startedBackend: CursesBackend?

    public init(paths: LibraryPaths, fingerprint: StartFingerprint) {
        self.fingerprint = fingerprint
        self.paths = paths
        let size = CursesBackend.terminalSize()
        key = fingerprint.key(width: size.width, height: size.height, library: LibraryFileStamp(databaseFile: paths.databaseFile))
        setup = fingerprint.setup(width: size.width, height: size.height)
        keptAnswers = LastShelfFile.keptAnswers(paths, setup: setup)
    }

    /// Starts the terminal and draws the kept frame now, before the library is opened: the one kept for the answers
    /// the early questions (`questions`) got, or the one kept as drawn before any answer, or with no early questions
    /// (inside tmux) the one kept after the last answers (`keptAfterTheLastAnswers`).
    public func showBeforeTheLibrary(colorsEnabled: Bool, environment: [String: String], questions: TerminalQuestions?) {
        guard !keptAnswers.isEmpty else { return }
        var colorMode: CursesBackend.ColorMode = colorsEnabled ? ColorModeDetector.detect(environment) : .none
        // The answers are waited for here rather than while the library opens: the frame is on the screen sooner. They
        // are read before curses starts in any case (reading them puts the terminal's modes back as they were).
        let answers = questions?.read()
        guard let frame = answers.flatMap({ kept(afterAnswers: StartFingerprint.answers(of: $0)) }) ?? kept(afterAnswers: nil)
                ?? (questions == nil ? keptAfterTheLastAnswers() : nil) else { return }
        // An xterm that calls itself `xterm` gets its 256 colours before curses starts, as `TerminalApp.askTerminal`
        // gives them (it finds the same from the same answers).
        if let answers, let better = ColorModeDetector.betterTerminalType(answers: answers, environment: environment, colorMode: colorMode) {
            setenv("TERM", better, 1)
            colorMode = .indexed
        }
        CrashGuard.install(restoring: questions?.modesBefore)
        let backend = CursesBackend(colorMode: colorMode)
        backend.start()
        backend.draw(frame)
        startedBackend = backend
        StartupTrace.mark("last shelf flushed")
    }

    /// Gives the terminal back as it was, when it was started here (the start failed before the interface took it).
    public func stop() {
        startedBackend?.stop()
        startedBackend = nil
    }

    /// The frame kept for a start that got these answers from the terminal before its first frame (nil: that asked
    /// nothing first), when its key is this start's.
    private func kept(afterAnswers answers: UInt64?) -> CellBuffer? {
        guard keptAnswers.contains(answers),
              let file = LastShelfFile.read(from: LastShelfFile.location(paths, setup: setup, answers: answers)),
              file.key == key, file.isBeforeAnswers == (answers == nil), file.answers == answers ?? 0 else { return nil }
        return file.frame
    }

    /// Inside tmux a start whose first frame waits for the terminal's answers (the theme following the background) asks
    /// tmux first whether the questions may pass, a tmux client's run (2–12 ms here): the frame kept after the answers the
    /// last start got, in this way of starting, is drawn without waiting for them. The answers are nearly always the same
    /// (the same pane, the same terminal); when they are not, the interface's first frame, drawn with the theme they
    /// choose, replaces it a moment later.
    private func keptAfterTheLastAnswers() -> CellBuffer? {
        guard let last = keptAnswers.first(where: { $0 != nil }) else { return nil }
        return kept(afterAnswers: last)
    }

    /// Keeps `frame` for the next start in a terminal of its size that gets the same answers (nil: asks nothing first),
    /// keyed by the library's files as they are now, closed; a nil frame removes the one kept. Then only the ways of
    /// starting used last keep theirs.
    func keep(_ frame: CellBuffer?, width: Int, height: Int, answers: UInt64?) {
        let file = LastShelfFile.location(paths, setup: fingerprint.setup(width: width, height: height), answers: answers)
        let key = fingerprint.key(width: width, height: height, library: LibraryFileStamp(databaseFile: paths.databaseFile))
        guard let frame, frame.width == width, frame.height == height,
              LastShelfFile(key: key, isBeforeAnswers: answers == nil, answers: answers ?? 0, frame: frame).write(to: file) else {
            return LastShelfFile.remove(at: file)
        }
        LastShelfFile.prune(paths.cacheDirectory)
    }
}

import Foundation
import NewsstandCore
import NewsstandRuntime
import NewsstandUI

/// The shelf as the last run left it for this start: read and checked before the library is opened, drawn at once
/// when nothing it depends on has changed (`StartFingerprint`), and worked out again at quit for the next start.
///
/// A start draws it here, before the library is opened, when its first frame does not wait for the terminal's answers
/// or their questions went out early (`showBeforeTheLibrary`); the interface then takes over the started terminal.
/// Otherwise `TerminalApp` draws it once the answers are in and agree (`frame(afterAnswers:)`). Either way the library is read as always, and the
/// interface's own first frame replaces it (on the screen nothing changes when the two agree: only differences are drawn).
@MainActor
public final class LastShelf {
    let fingerprint: StartFingerprint
    private let paths: LibraryPaths
    private let databaseFile: URL
    /// The kept frame when its key agreed with this start's.
    private let stored: LastShelfFile?
    /// The terminal, started here to draw the kept frame before the library was opened.
    private(set) var startedBackend: CursesBackend?

    /// Reads the kept frame and keeps it when its key is this start's: the terminal's size now and the library's files
    /// as they are before this start opens them.
    public init(paths: LibraryPaths, fingerprint: StartFingerprint) {
        self.fingerprint = fingerprint
        self.paths = paths
        databaseFile = paths.databaseFile
        let size = CursesBackend.terminalSize()
        let key = fingerprint.key(width: size.width, height: size.height, library: LibraryFileStamp(databaseFile: databaseFile))
        let file = LastShelfFile.location(paths, setup: fingerprint.setup(width: size.width, height: size.height))
        stored = LastShelfFile.read(from: file).flatMap { $0.key == key ? $0 : nil }
    }

    /// Starts the terminal and draws the kept frame now, before the library is opened: when it was drawn before the
    /// terminal's answers (this start asks nothing first either: the fingerprint holds the theme and the settings that
    /// decide it), or when its questions went out early (`questions`) and their answers are those it was drawn after.
    /// Otherwise the interface draws it once it has asked (`frame(afterAnswers:)`).
    public func showBeforeTheLibrary(colorsEnabled: Bool, environment: [String: String], questions: TerminalQuestions?) {
        guard let stored else { return }
        var colorMode: CursesBackend.ColorMode = colorsEnabled ? ColorModeDetector.detect(environment) : .none
        if !stored.isBeforeAnswers {
            // The answers are waited for here rather than while the library opens: the frame is on the screen sooner.
            guard let questions else { return }
            let answers = questions.read()
            guard StartFingerprint.answers(of: answers) == stored.answers else { return }
            // An xterm that calls itself `xterm` gets its 256 colours before curses starts, as `TerminalApp.askTerminal`
            // gives them (it finds the same from the same answers).
            if let better = ColorModeDetector.betterTerminalType(answers: answers, environment: environment, colorMode: colorMode) {
                setenv("TERM", better, 1)
                colorMode = .indexed
            }
        }
        CrashGuard.install(restoring: questions?.modesBefore)
        let backend = CursesBackend(colorMode: colorMode)
        backend.start()
        backend.draw(stored.frame)
        startedBackend = backend
        StartupTrace.mark("last shelf flushed")
    }

    /// Gives the terminal back as it was, when it was started here (the start failed before the interface took it).
    public func stop() {
        startedBackend?.stop()
        startedBackend = nil
    }

    /// The kept frame for a start that waited for the terminal's answers, when they decided what they decided then.
    func frame(afterAnswers answers: UInt64) -> CellBuffer? {
        guard let stored, !stored.isBeforeAnswers, stored.answers == answers else { return nil }
        return stored.frame
    }

    /// Keeps `frame` for the next start in a terminal of its size (nil: removes the one kept for `width` × `height`),
    /// keyed by the library's files as they are now, closed; then only the last few ways of starting keep theirs.
    func keep(_ frame: CellBuffer?, width: Int, height: Int, isBeforeAnswers: Bool, answers: UInt64) {
        let file = LastShelfFile.location(paths, setup: fingerprint.setup(width: width, height: height))
        let key = fingerprint.key(width: width, height: height, library: LibraryFileStamp(databaseFile: databaseFile))
        guard let frame, frame.width == width, frame.height == height,
              LastShelfFile(key: key, isBeforeAnswers: isBeforeAnswers, answers: isBeforeAnswers ? 0 : answers, frame: frame).write(to: file) else {
            return LastShelfFile.remove(at: file)
        }
        LastShelfFile.prune(paths.cacheDirectory)
    }
}


import Foundation
import NewsstandImaging
import NewsstandUI

/// What a start's first frame depends on, reduced to one number (64-bit FNV-1a): the program's build, the shelf
/// command's options, the environment variables the interface reads, the config and theme files' bytes, the
/// terminal's size and the library's files as they stand on disk (`LibraryFileStamp`). Taken before the library is
/// opened, and again at quit once it is closed: a frame kept at quit is drawn at the next start only when the two agree.
///
/// The terminal's answers (background, pictures), when a start waits for them before its first frame, are kept as a
/// number of their own (`answers(of:)`), compared once they are in.
public struct StartFingerprint: Sendable, Equatable {
    /// The environment variables the interface reads; of two, only whether they are set (their values name a window).
    static let environmentKeys = ["TERM", "COLORTERM", "COLORFGBG", "NO_COLOR", "TERM_PROGRAM", "LC_TERMINAL", "LANG", "LC_ALL",
                                  "LC_CTYPE", "TERMINFO", "TERMINFO_DIRS"]
    static let environmentPresenceKeys = ["TMUX", "KITTY_WINDOW_ID"]

    private var hash = FNV1a()

    /// `build` names the program (its version and commit); the running executable's size and time are added.
    /// `themeTexts` are the theme files in use, as read (nil for one not found).
    public init(build: String, options: [String], environment: [String: String], configText: String?, themeTexts: [String?]) {
        hash.field(build)
        var executable = stat()
        if stat("/proc/self/exe", &executable) == 0 {
            hash.field("\(executable.st_size) \(executable.st_mtim.tv_sec).\(executable.st_mtim.tv_nsec)")
        }
        for option in options { hash.field(option) }
        hash.field("environment")
        for key in Self.environmentKeys { hash.field(environment[key].map { "\(key)=\($0)" } ?? key) }
        for key in Self.environmentPresenceKeys { hash.field("\(key) \((environment[key] ?? "").isEmpty ? 0 : 1)") }
        hash.field(configText ?? "no config")
        for text in themeTexts { hash.field(text ?? "no theme") }
    }

    /// The number for a terminal of this size and the library's files as `library` found them.
    public func key(width: Int, height: Int, library: LibraryFileStamp) -> UInt64 {
        var hash = sized(width: width, height: height)
        hash.field(library.description)
        return hash.value
    }

    /// The number for a terminal of this size, whatever the library holds: which kept frame is this start's (each way
    /// of starting keeps its own, `LastShelfFile.location`).
    public func setup(width: Int, height: Int) -> UInt64 {
        sized(width: width, height: height).value
    }

    private func sized(width: Int, height: Int) -> FNV1a {
        var hash = hash
        hash.field("\(width)x\(height)")
        return hash
    }

    /// The number for a start that asked the terminal nothing before its first frame, or got no answer.
    static let noAnswers = answers(of: TerminalAnswers())

    /// The number for the terminal's answers (what it is, draws, and its background): given the same fingerprint, the
    /// same answers decide the theme and the covers as they did. Keys typed meanwhile are not part of it.
    static func answers(of answers: TerminalAnswers) -> UInt64 {
        var hash = FNV1a()
        hash.field(answers.hasKittyGraphics ? "kitty graphics" : "no kitty graphics")
        hash.field(answers.primaryAttributes.map { $0.map(String.init).joined(separator: ";") } ?? "no DA1")
        hash.field(answers.version ?? "no version")
        hash.field(answers.outerVersion ?? "no outer version")
        hash.field(answers.cellPixelSize.map { "\($0.width)x\($0.height)" } ?? "no cell size")
        hash.field(answers.background.map { "\($0.red),\($0.green),\($0.blue)" } ?? "no background")
        return hash.value
    }
}

/// The library's database file and its write-ahead log as found on disk: device, inode, size and modification time.
/// Any write to the library changes one of them. Not the change time: SQLite changes the log's at every close (it
/// truncates the empty log again), and a run that wrote nothing would make every other way of starting read the library.
public struct LibraryFileStamp: Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(databaseFile: URL) {
        description = [databaseFile.path, databaseFile.path + "-wal"].map { path -> String in
            var info = stat()
            guard stat(path, &info) == 0 else { return "absent" }
            return "\(info.st_dev) \(info.st_ino) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        }.joined(separator: " | ")
    }
}

/// 64-bit FNV-1a over length-prefixed fields (so that no two lists of fields run together alike).
struct FNV1a: Sendable, Equatable {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func field(_ text: String) {
        var length = UInt64(text.utf8.count)
        for _ in 0..<8 {
            add(UInt8(length & 0xFF))
            length >>= 8
        }
        for byte in text.utf8 { add(byte) }
    }

    private mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
}

import Foundation
import NewsstandTestSupport
import XCTest

/// The program run on a pseudo-terminal the test plays the terminal of: it reads what the program writes and
/// answers its questions itself, byte for byte. Stopped (SIGTERM, then SIGKILL) on `stop` or deinit.
final class PseudoTerminal {
    private let primary: Int32
    let process: Process
    /// Everything the program has written so far.
    private(set) var output: [UInt8] = []

    /// Starts `newsstand arguments` (or `executable arguments`) on a new pseudo-terminal of `columns` × `rows` cells.
    init(_ arguments: [String], environment: [String: String], columns: Int = 100, rows: Int = 30, executable: URL? = nil) throws {
        // posix_openpt and ptsname do not import from Glibc: /dev/ptmx, then TIOCSPTLCK (unlock) and TIOCGPTN (its number).
        primary = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0, number: UInt32 = 0
        guard primary >= 0, ioctl(primary, 0x4004_5431, &unlock) == 0, ioctl(primary, 0x8004_5430, &number) == 0 else {
            throw TestRequirement.broken("no pseudo-terminal could be opened")
        }
        let name = "/dev/pts/\(number)"
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(primary, UInt(TIOCSWINSZ), &size)
        let secondary = open(name, O_RDWR | O_NOCTTY)
        guard secondary >= 0 else { throw TestRequirement.broken("the pseudo-terminal's other end could not be opened") }
        let handle = FileHandle(fileDescriptor: secondary, closeOnDealloc: true)
        process = Process()
        process.executableURL = try executable ?? TestEnvironment.binary()
        process.arguments = arguments
        process.environment = environment
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        try process.run()
        close(secondary)
    }

    deinit {
        stop()
        close(primary)
    }

    /// Reads what the program writes until `output` contains `bytes` (true) or `timeout` passes (false).
    @discardableResult
    func read(until bytes: [UInt8], timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !contains(bytes) {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return false }
            var poller = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(primary, $0.baseAddress, $0.count) }
            guard count > 0 else { return contains(bytes) }
            output += buffer[0..<count]
        }
        return true
    }

    /// Reads whatever arrives within `duration`.
    func read(for duration: TimeInterval) {
        read(until: Array("\u{0}never\u{0}".utf8), timeout: duration)
    }

    /// Whether the program has written `bytes`.
    func contains(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty, output.count >= bytes.count else { return bytes.isEmpty }
        return (0...(output.count - bytes.count)).contains { output[$0..<($0 + bytes.count)].elementsEqual(bytes) }
    }

    /// The terminal's local modes (`c_lflag`: ECHO, ICANON…) as the program has left them.
    var localModes: tcflag_t {
        var modes = termios()
        _ = tcgetattr(primary, &modes)
        return modes.c_lflag
    }

    /// Types `bytes` as the terminal's answer or keys.
    func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.write(primary, $0.baseAddress, $0.count) }
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { read(for: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

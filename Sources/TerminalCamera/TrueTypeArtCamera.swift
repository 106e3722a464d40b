import Foundation
import NewsstandImaging
#if canImport(Glibc)
import Glibc
#endif

/// Text art as a real terminal draws it with a TrueType face: each art is shown by `xterm -fa 'DejaVu Sans Mono'`
/// (white on black, no border, no cursor) on a private X server, and its window photographed — exactly the text
/// area, `columns` × `rows` cells. An independent view of the art from `InkCorrelation`'s bitmap font, which is the
/// one the renderer matches its glyphs against. Every step is bounded in time; a failure says which step.
public final class TrueTypeArtCamera {
    /// The TrueType face xterm draws with (fontconfig's name; Debian's fonts-dejavu-core).
    public static let face = "DejaVu Sans Mono"
    public let pointSize: Int
    private let display: VirtualDisplay
    private let xterm: String
    private let folder: URL
    private var shots = 0

    /// Starts the X server; `pointSize` is xterm's `-fs` (8 gives cells of 7 × 14 pixels on Xvfb). Fails with
    /// `missing` when Xvfb, xwd or xterm is not installed.
    public init(pointSize: Int = 8, screenWidth: Int = 1280, screenHeight: Int = 1024) throws {
        xterm = try CameraCommand.path("xterm", package: "xterm")
        self.pointSize = pointSize
        display = try VirtualDisplay(width: screenWidth, height: screenHeight)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-truetype-\(getpid())-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The pixels of `lines` (one string per row, one character per cell; anything but printable ASCII is drawn as a
    /// blank) as xterm shows them: `columns` × `rows` cells, white on black, waiting at most `timeout` seconds for the
    /// terminal to start and its picture to settle.
    public func photograph(_ lines: [String], timeout: TimeInterval = 20) throws -> RasterImage {
        let columns = lines.map(\.count).max() ?? 0, rows = lines.count
        guard columns > 0, rows > 0 else { throw TerminalCameraError.failed("nothing to draw") }
        shots += 1
        let title = "newsstand-truetype-\(shots)"
        let text = lines.map { line in
            String(line.map { $0.isASCII && ($0.asciiValue ?? 0) >= 0x20 && ($0.asciiValue ?? 0) < 0x7F ? $0 : " " })
                .padding(toLength: columns, withPad: " ", startingAt: 0)
        }.joined(separator: "\n")
        let art = folder.appendingPathComponent("\(shots).txt"), shown = folder.appendingPathComponent("\(shots).shown")
        try Data(text.utf8).write(to: art)
        let terminal = Process()
        terminal.executableURL = URL(fileURLWithPath: xterm)
        // No border, no title changes, no cursor (hidden before the art; no newline after its last line, so nothing
        // scrolls), held open after the shell ends so it can be photographed.
        terminal.arguments = ["-b", "0", "-bw", "0", "-title", title, "-xrm", "XTerm*allowTitleOps: false", "-fa", Self.face,
                              "-fs", String(pointSize), "-bg", "black", "-fg", "white", "-geometry", "\(columns)x\(rows)+0+0", "-hold",
                              "-e", "/bin/sh", "-c", "printf '\\033[?25l'; cat \"$0\"; : > \"$1\"", art.path, shown.path]
        // HOME is the scratch folder, so no ~/.Xdefaults of the user's changes how xterm draws.
        terminal.environment = display.environment(["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": folder.path])
        terminal.standardInput = FileHandle.nullDevice
        terminal.standardOutput = FileHandle.nullDevice
        terminal.standardError = FileHandle.nullDevice
        try terminal.run()
        defer {
            if terminal.isRunning { kill(terminal.processIdentifier, SIGKILL) }
            terminal.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(timeout)
        while !FileManager.default.fileExists(atPath: shown.path) {
            guard terminal.isRunning else { throw TerminalCameraError.failed("xterm exited with \(terminal.terminationStatus) before drawing the art") }
            guard Date() < deadline else { throw TerminalCameraError.failed("xterm did not draw the art within \(Int(timeout)) s") }
            usleep(20_000)
        }
        // The shell has written everything; the picture is taken when two in a row agree and have the window's size.
        var last: RasterImage?
        while true {
            guard Date() < deadline else { throw TerminalCameraError.failed("xterm's window did not settle within \(Int(timeout)) s") }
            if let picture = try? display.photograph(windowTitled: title, timeout: max(1, deadline.timeIntervalSinceNow)),
               picture.width % columns == 0, picture.height % rows == 0, picture.width >= columns * 4, picture.height >= rows * 8 {
                if picture == last { return picture }
                last = picture
            }
            usleep(100_000)
        }
    }

    /// How faithfully xterm's drawing of `lines` carries `picture`'s light (see `InkCorrelation.init(screen:...)`).
    public func score(_ lines: [String], picture: RasterImage, timeout: TimeInterval = 20) throws -> InkCorrelation {
        let screen = try photograph(lines, timeout: timeout)
        return InkCorrelation(screen: screen, columns: lines.map(\.count).max() ?? 0, rows: lines.count, picture: picture)
    }
}

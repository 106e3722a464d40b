import Foundation
import NewsstandTestSupport
import XCTest

/// A private X server (Xvfb) with one xterm in it, for tests that look at real terminal pictures:
/// screenshots with `xwd`, read as raw RGB through ImageMagick's `convert`. Stopped (xterm first) on deinit.
final class XtermDisplay {
    let display: String
    private let server: Process
    private var terminal: Process?
    static let width = 800, height = 600

    /// Starts Xvfb on a free display; skips the test when Xvfb, xterm, xwd or convert is missing.
    init() throws {
        for tool in ["Xvfb", "xterm", "xwd", "convert"] where Self.which(tool) == nil {
            throw TestRequirement.absent("\(tool) is not installed (make test installs xvfb, xterm, x11-apps and imagemagick); the sixel end-to-end test is skipped")
        }
        guard let number = (90..<130).first(where: { !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") && !FileManager.default.fileExists(atPath: "/tmp/.X\($0)-lock") }) else {
            throw TestRequirement.broken("no free X display number")
        }
        display = ":\(number)"
        server = Process()
        server.executableURL = URL(fileURLWithPath: Self.which("Xvfb")!)
        server.arguments = [display, "-screen", "0", "\(Self.width)x\(Self.height)x24", "-nolisten", "tcp"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") {
            guard Date() < deadline, server.isRunning else { throw TestRequirement.broken("Xvfb did not start on \(display)") }
            usleep(50_000)
        }
    }

    deinit {
        if let terminal, terminal.isRunning { terminal.terminate(); terminal.waitUntilExit() }
        if server.isRunning { server.terminate(); server.waitUntilExit() }
    }

    /// Starts `xterm -ti vt340` (a VT340's sixel graphics) of `columns` × `rows` running `command`; `-hold` keeps
    /// the window after the program ends, so the screen it leaves can be looked at.
    func startXterm(_ command: [String], columns: Int, rows: Int, environment: [String: String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.which("xterm")!)
        process.arguments = ["-ti", "vt340", "-hold", "-geometry", "\(columns)x\(rows)+0+0", "-e"] + command
        var environment = environment
        environment["DISPLAY"] = display
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        terminal = process
    }

    /// The program xterm runs (its child), once it has started.
    func terminalChild() -> pid_t? {
        guard let terminal else { return nil }
        let children = (try? String(contentsOfFile: "/proc/\(terminal.processIdentifier)/task/\(terminal.processIdentifier)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { pid_t($0) }
    }

    /// The whole screen as RGB bytes, `width` × `height`.
    func screenshot() throws -> [UInt8] {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "xwd -root -silent -display \(display) | convert xwd:- -depth 8 rgb:-"]
        let output = Pipe()
        shell.standardOutput = output
        shell.standardError = FileHandle.nullDevice
        try shell.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        shell.waitUntilExit()
        guard data.count == Self.width * Self.height * 3 else { throw TestRequirement.broken("the screenshot has \(data.count) bytes, not an \(Self.width)×\(Self.height) RGB image") }
        return [UInt8](data)
    }

    /// How many pixels of `screen` are within `tolerance` of `color`, and the box around them (x0, y0, x1, y1).
    static func pixels(near color: (Int, Int, Int), tolerance: Int, in screen: [UInt8]) -> (count: Int, box: (Int, Int, Int, Int)) {
        var count = 0, box = (Int.max, Int.max, -1, -1)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 3
                guard abs(Int(screen[index]) - color.0) <= tolerance, abs(Int(screen[index + 1]) - color.1) <= tolerance,
                      abs(Int(screen[index + 2]) - color.2) <= tolerance else { continue }
                count += 1
                box = (min(box.0, x), min(box.1, y), max(box.2, x), max(box.3, y))
            }
        }
        return (count, box)
    }

    private static func which(_ program: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") + ["/usr/bin"] {
            let path = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}

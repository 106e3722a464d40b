import Foundation
import NewsstandImaging
import NewsstandTestSupport
import TerminalCamera
import XCTest

/// A private X server (Xvfb, TerminalCamera's `VirtualDisplay`) with one real terminal in it (xterm or kitty), for
/// tests that look at what it shows: screenshots with `xwd`, as RGB bytes. Stopped (terminal first) on deinit.
final class XtermDisplay {
    let display: String
    private let server: VirtualDisplay
    private var terminal: Process?
    /// Where the program the terminal runs writes its process id (`startProgram`).
    private let programIDFile = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-program-\(UUID().uuidString).pid")
    static let width = 1024, height = 768

    /// Starts Xvfb on a display it picks; skips the test when Xvfb, xterm, xwd or xwininfo is missing.
    init() throws {
        for tool in ["Xvfb", "xterm", "xwd", "xwininfo"] where Self.which(tool) == nil {
            throw TestRequirement.absent("\(tool) is not installed (make test installs xvfb, xterm, x11-apps and x11-utils); the real-terminal test is skipped")
        }
        do {
            server = try VirtualDisplay(width: Self.width, height: Self.height)
        } catch {
            throw TestRequirement.broken("\(error)")
        }
        display = server.name
    }

    deinit {
        if let program = programID() { kill(program, SIGKILL) }
        if let terminal, terminal.isRunning { terminal.terminate(); terminal.waitUntilExit() }
        try? FileManager.default.removeItem(at: programIDFile)
        // Xvfb stops when `server` goes, after this.
    }

    /// Starts `xterm` with `options` (such as `-ti vt340` or `-bg black -fg white`) of `columns` × `rows`, titled
    /// `title`, at the screen's top-left corner without a border, running `command`; `-hold` keeps the window after
    /// the program ends, so the screen it leaves can be looked at. The program's id is kept for `programID`.
    func startXterm(_ command: [String], options: [String], title: String, columns: Int, rows: Int, environment: [String: String]) throws {
        try start(Self.which("xterm")!, ["-b", "0", "-title", title, "-xrm", "XTerm*allowTitleOps: false"] + options
                  + ["-hold", "-geometry", "\(columns)x\(rows)+0+0", "-e"] + programCommand(command),
                  environment: environment, errors: nil)
    }

    /// Starts Debian's `kitty` (software OpenGL) with no user config, `columns` × `rows` cells titled `title`, holding
    /// its window after the program ends; its standard error (where it reports parse errors) goes to `log`.
    func startKitty(_ command: [String], options: [String] = [], title: String, columns: Int, rows: Int,
                    environment: [String: String], log: URL) throws {
        guard let kitty = Self.which("kitty") else {
            throw TestRequirement.absent("kitty is not installed (make test installs kitty and libgl1-mesa-dri); the kitty end-to-end test is skipped")
        }
        var environment = environment
        environment["LIBGL_ALWAYS_SOFTWARE"] = "1"
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        try start(kitty, ["--config", "NONE", "--hold", "--title", title, "-o", "font_size=10", "-o", "remember_window_size=no",
                          "-o", "initial_window_width=\(columns)c", "-o", "initial_window_height=\(rows)c", "-o", "window_padding_width=0",
                          "-o", "placement_strategy=top-left", "-o", "allow_remote_control=no"] + options.flatMap { ["-o", $0] }
                  + programCommand(command), environment: environment, errors: try FileHandle(forWritingTo: log))
    }

    /// The command wrapped so it writes its process id first (`sh` then becomes the program).
    private func programCommand(_ command: [String]) -> [String] {
        ["/bin/sh", "-c", "echo $$ > \"$0\"; exec \"$@\"", programIDFile.path] + command
    }

    private func start(_ executable: String, _ arguments: [String], environment: [String: String], errors: FileHandle?) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = environment
        environment["DISPLAY"] = display
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors ?? FileHandle.nullDevice
        try process.run()
        terminal = process
    }

    /// The process id of the program the terminal runs, once it has started (`startXterm`, `startKitty`).
    func programID() -> pid_t? {
        (try? String(contentsOf: programIDFile, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Waits until the program has started and the window titled `title` is mapped; its place and size in pixels.
    func window(titled title: String, timeout: TimeInterval = 20) throws -> (x: Int, y: Int, width: Int, height: Int) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if programID() != nil, let geometry = Self.geometry(of: title, display: display) { return geometry }
            usleep(100_000)
        }
        throw TestRequirement.broken("the terminal window '\(title)' did not appear on \(display)")
    }

    private static func geometry(of title: String, display: String) -> (x: Int, y: Int, width: Int, height: Int)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "xwininfo -display \"$0\" -name \"$1\"", display, title]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        func value(_ label: String) -> Int? {
            text.split(separator: "\n").first { $0.contains(label) }.flatMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
        }
        guard process.terminationStatus == 0, text.contains("Map State: IsViewable"), let x = value("Absolute upper-left X"),
              let y = value("Absolute upper-left Y"), let width = value("Width"), let height = value("Height") else { return nil }
        return (x, y, width, height)
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
        let screen: RasterImage
        do {
            screen = try server.photographScreen()
        } catch {
            throw TestRequirement.broken("no screenshot of \(display): \(error)")
        }
        guard screen.width == Self.width, screen.height == Self.height else {
            throw TestRequirement.broken("the screenshot is \(screen.width)×\(screen.height), not \(Self.width)×\(Self.height)")
        }
        var rgb = [UInt8](repeating: 0, count: Self.width * Self.height * 3)
        for pixel in 0..<(Self.width * Self.height) {
            rgb[pixel * 3] = screen.pixels[pixel * 4]
            rgb[pixel * 3 + 1] = screen.pixels[pixel * 4 + 1]
            rgb[pixel * 3 + 2] = screen.pixels[pixel * 4 + 2]
        }
        return rgb
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

    /// Types keys (xdotool's names: `question`, `Escape`, `G`) into the window titled `title`.
    func press(_ keys: [String], window title: String) throws {
        try xdotool(["key", "--window", try windowID(title)] + keys)
    }

    /// Resizes the window titled `title` to `width` × `height` pixels (the terminal tells its program: SIGWINCH).
    func resize(window title: String, width: Int, height: Int) throws {
        try xdotool(["windowsize", try windowID(title), "\(width)", "\(height)"])
    }

    private func windowID(_ title: String) throws -> String {
        let id = try xdotool(["search", "--name", title]).split(separator: "\n").first.map(String.init)
        return try XCTUnwrap(id, "no window titled \(title)")
    }

    @discardableResult
    private func xdotool(_ arguments: [String]) throws -> String {
        guard let tool = Self.which("xdotool") else { throw TestRequirement.absent("xdotool is not installed (make test installs it)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.environment = ["DISPLAY": display, "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    /// Of the pixels of `before` that are not `paper`, the share `after` still has, in the same places.
    static func sameShare(_ before: [RGBColor], _ after: [RGBColor], paper: RGBColor) -> Double {
        let drawn = before.indices.filter { before[$0] != paper }
        guard !drawn.isEmpty, before.count == after.count else { return 0 }
        return Double(drawn.filter { before[$0] == after[$0] }.count) / Double(drawn.count)
    }

    /// The pixels of `screen` in the rectangle (clipped to the screen), as RGB colours.
    static func colors(in screen: [UInt8], x: Int, y: Int, width: Int, height: Int) -> [RGBColor] {
        var colors: [RGBColor] = []
        for row in max(0, y)..<min(Self.height, y + height) {
            for column in max(0, x)..<min(Self.width, x + width) {
                let index = (row * Self.width + column) * 3
                colors.append(RGBColor(red: screen[index], green: screen[index + 1], blue: screen[index + 2]))
            }
        }
        return colors
    }

    /// How text in a rectangle of cells reads: its paper is the commonest colour, its ink the colour that differs
    /// most from it (a glyph's stem, not its anti-aliased edge); their WCAG contrast ratio.
    static func textContrast(of colors: [RGBColor]) -> (ratio: Double, ink: RGBColor, paper: RGBColor) {
        var counts: [RGBColor: Int] = [:]
        for color in colors { counts[color, default: 0] += 1 }
        guard let paper = counts.max(by: { $0.value < $1.value })?.key else { return (1, .black, .black) }
        let ink = counts.keys.max { ContrastRatio.between($0, paper) < ContrastRatio.between($1, paper) } ?? paper
        return (ContrastRatio.between(ink, paper), ink, paper)
    }

    /// How many different colours there are (at 4 bits a channel, so a picture's gradients count and dithering does not).
    static func distinctColors(_ colors: [RGBColor]) -> Int {
        Set(colors.map { Int($0.red >> 4) << 8 | Int($0.green >> 4) << 4 | Int($0.blue >> 4) }).count
    }

    private static func which(_ program: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") + ["/usr/bin"] {
            let path = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}

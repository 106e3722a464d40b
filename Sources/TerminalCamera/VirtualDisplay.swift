import Foundation
import NewsstandImaging
#if canImport(Glibc)
import Glibc
#endif

/// A private X server (Xvfb) on a display it chooses itself, for drawing real terminals where no one sees them and
/// photographing their windows with `xwd`. Stopped on deinit.
public final class VirtualDisplay {
    /// The display's name, as `DISPLAY` takes it (":93").
    public let name: String
    public let width: Int, height: Int
    private let server: Process
    private let xwd: String

    /// Starts Xvfb with a `width` × `height` screen of 24-bit colour, waiting at most `timeout` seconds for it.
    public init(width: Int = 1280, height: Int = 1024, timeout: TimeInterval = 15) throws {
        let xvfb = try CameraCommand.path("Xvfb", package: "xvfb")
        xwd = try CameraCommand.path("xwd", package: "x11-apps")
        self.width = width
        self.height = height
        server = Process()
        server.executableURL = URL(fileURLWithPath: xvfb)
        // -displayfd: Xvfb picks a free display and writes its number once it accepts clients.
        server.arguments = ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"]
        let ready = Pipe()
        server.standardOutput = ready
        server.standardError = FileHandle.nullDevice
        server.standardInput = FileHandle.nullDevice
        try server.run()
        let server = server
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + timeout)
        timer.setEventHandler { server.terminate() }
        timer.resume()
        defer { timer.cancel() }
        var text = ""
        while !text.contains("\n") {
            let chunk = ready.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), server.isRunning else {
            if server.isRunning { server.terminate() }
            server.waitUntilExit()
            throw TerminalCameraError.failed("Xvfb did not start within \(Int(timeout)) s")
        }
        name = ":\(number)"
    }

    deinit {
        if server.isRunning {
            server.terminate()
            server.waitUntilExit()
        }
    }

    /// The environment a program on this display runs with: `extra`, with `DISPLAY` set to this one.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = extra
        environment["DISPLAY"] = name
        if environment["PATH"] == nil { environment["PATH"] = "/usr/bin:/bin" }
        return environment
    }

    /// The inside of the window titled `title` (no border), as `xwd` dumps it; fails when there is no such window
    /// or `xwd` takes longer than `timeout`.
    public func photograph(windowTitled title: String, timeout: TimeInterval = 10) throws -> RasterImage {
        let dump = try CameraCommand.run(xwd, ["-display", name, "-name", title, "-nobdrs", "-silent"], environment: environment(),
                                         timeout: timeout)
        return try XWDImage.decode(dump)
    }

    /// The whole screen, as `xwd -root` dumps it.
    public func photographScreen(timeout: TimeInterval = 10) throws -> RasterImage {
        try XWDImage.decode(try CameraCommand.run(xwd, ["-display", name, "-root", "-silent"], environment: environment(), timeout: timeout))
    }
}

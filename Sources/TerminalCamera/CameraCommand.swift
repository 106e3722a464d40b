import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a real terminal could not be drawn or photographed: a program that is not installed (`missing`, which a test
/// may skip outside CI), or one that failed or took too long (`failed`, always a failure).
public enum TerminalCameraError: Error, Equatable, CustomStringConvertible {
    case missing(program: String, package: String)
    case failed(String)

    public var description: String {
        switch self {
        case let .missing(program, package): "\(program) is not installed (Debian package \(package))"
        case let .failed(what): what
        }
    }
}

/// The programs the camera runs, found on PATH (or in /usr/bin), and a bounded way to run them.
enum CameraCommand {
    /// The full path of `program`, or `missing` naming the Debian package that brings it.
    static func path(_ program: String, package: String) throws -> String {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/bin"]
        guard let path = folders.map({ "\($0)/\(program)" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw TerminalCameraError.missing(program: program, package: package)
        }
        return path
    }

    /// Runs `executable` to its end, at most `timeout` seconds (then it is killed and this fails), and returns what
    /// it wrote on standard output (at most `maxBytes`; more fails).
    static func run(_ executable: String, _ arguments: [String], environment: [String: String], timeout: TimeInterval,
                    maxBytes: Int = 64 << 20) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let name = URL(fileURLWithPath: executable).lastPathComponent
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + timeout)
        timer.setEventHandler { kill(process.processIdentifier, SIGKILL) }
        timer.resume()
        defer { timer.cancel() }
        var data = Data()
        let reader = output.fileHandleForReading
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            data.append(chunk)
            if data.count > maxBytes {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw TerminalCameraError.failed("\(name) wrote more than \(maxBytes >> 20) MB")
            }
        }
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal, process.terminationStatus == SIGKILL {
            throw TerminalCameraError.failed("\(name) did not finish within \(Int(timeout)) s")
        }
        guard process.terminationStatus == 0 else { throw TerminalCameraError.failed("\(name) exited with \(process.terminationStatus)") }
        return data
    }
}

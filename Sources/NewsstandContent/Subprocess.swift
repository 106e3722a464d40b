import Foundation
import Synchronization

/// Runs a command-line tool to completion with a time limit, collecting what it prints.
public enum Subprocess {
    struct Output: Sendable {
        let status: Int32
        let standardOutput: Data
        let standardError: String
    }

    enum Failure: Error {
        case notFound(String)
        case couldNotStart(String)
        case timedOut(TimeInterval)
    }

    /// The executable called `name` in the folders of `searchPath` (`$PATH` when nil), if any; a name with a `/`
    /// is a path, taken as it is when it is executable.
    public static func find(_ name: String, searchPath: String? = nil) -> URL? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? URL(fileURLWithPath: name) : nil }
        let path = searchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Runs `executable` with `arguments`; after `timeout` seconds the child is sent SIGTERM, then
    /// SIGKILL a second later, and `Failure.timedOut` is thrown.
    static func run(_ executable: URL, _ arguments: [String], timeout: TimeInterval) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            throw Failure.couldNotStart("\(executable.lastPathComponent): \(error.localizedDescription)")
        }
        // Read both pipes while the child runs, so a chatty child cannot fill a pipe and stall.
        let collected = Collected()
        let readers = DispatchGroup()
        for (pipe, isError) in [(outputPipe, false), (errorPipe, true)] {
            let handle = pipe.fileHandleForReading
            DispatchQueue.global().async(group: readers) {
                let data = handle.readDataToEndOfFile()
                collected.store(data, isError: isError)
            }
        }
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            let pid = process.processIdentifier
            process.terminate()
            if finished.wait(timeout: .now() + 1) == .timedOut {
                kill(pid, SIGKILL)
                _ = finished.wait(timeout: .now() + 5)
            }
            _ = readers.wait(timeout: .now() + 2)
            throw Failure.timedOut(timeout)
        }
        _ = readers.wait(timeout: .now() + 5)
        let (output, errors) = collected.values
        return Output(status: process.terminationStatus, standardOutput: output,
                      standardError: String(decoding: errors, as: UTF8.self))
    }

    private final class Collected: Sendable {
        private let streams = Mutex((output: Data(), errors: Data()))

        func store(_ data: Data, isError: Bool) {
            streams.withLock { streams in
                if isError { streams.errors = data } else { streams.output = data }
            }
        }

        var values: (Data, Data) { streams.withLock { ($0.output, $0.errors) } }
    }
}

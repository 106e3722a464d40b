import Foundation
import NewsstandContent
import NewsstandCore
import Synchronization

/// Runs the programs the config file names (`browser`, `player`, `notify-program`) as one: without a shell, the
/// program found on `PATH` (or at its path), its input from `input` (else /dev/null), its output thrown away, and
/// what it says on stderr kept for the message when it fails. Synchronous: call it off the UI thread.
public enum HookRunner {
    /// What a hook that did not do its job said, in plain words.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// How long to watch a program, and what then.
    public enum Wait: Equatable, Sendable {
        /// Watch for `seconds`: a failure in that time is reported; a program still running is left to run
        /// (a browser, a player playing).
        case watch(seconds: TimeInterval)
        /// Wait at most `seconds` for it to finish; one still running then is stopped and that is a failure.
        case finish(seconds: TimeInterval)
    }

    /// Seconds `notify-program` may take before it is stopped.
    public static let notifyTimeout: TimeInterval = 10
    /// Seconds a browser or player is watched for a failure to report.
    public static let openerWatch: TimeInterval = 5

    /// Runs `invocation`; nil when it did its job (or, watched, still runs). `role` names it in messages:
    /// "the browser", "notify-program".
    public static func run(_ invocation: (program: String, arguments: [String]), role: String, input: Data? = nil, wait: Wait,
                           path: String? = ProcessInfo.processInfo.environment["PATH"]) -> Failure? {
        _ = ignoringBrokenPipes
        let name = "\(role) '\(invocation.program)'"
        guard let executable = find(invocation.program, path: path) else { return Failure(description: "\(name) is not installed") }
        let process = Process()
        process.executableURL = executable
        process.arguments = invocation.arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        let inputPipe = input.map { _ in Pipe() }
        process.standardInput = inputPipe ?? FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        let said = ErrorText()
        errors.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil } else { said.append(data) }
        }
        do {
            try process.run()
        } catch {
            errors.fileHandleForReading.readabilityHandler = nil
            return Failure(description: "\(name) could not be started: \(error.localizedDescription)")
        }
        if let inputPipe, let input {
            // A program that does not read its input must not block us: write from another thread, and close.
            let writer = inputPipe.fileHandleForWriting
            DispatchQueue.global(qos: .utility).async {
                try? writer.write(contentsOf: input)
                try? writer.close()
            }
        }
        let seconds: TimeInterval
        switch wait {
        case .watch(let watched): seconds = watched
        case .finish(let limit): seconds = limit
        }
        guard finished.wait(timeout: .now() + seconds) == .success else {
            guard case .finish = wait else { return nil }
            process.terminate()
            if finished.wait(timeout: .now() + 1) != .success { kill(process.processIdentifier, SIGKILL) }
            return Failure(description: "\(name) did not finish in \(String(format: "%g", seconds)) seconds and was stopped")
        }
        // Let the last of stderr arrive.
        Thread.sleep(forTimeInterval: 0.02)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let how = process.terminationReason == .exit ? "exit status \(process.terminationStatus)" : "killed by signal \(process.terminationStatus)"
            let last = said.lastLine.map { ": \($0)" } ?? ""
            return Failure(description: "\(name) failed (\(how))\(last)")
        }
        return nil
    }

    /// Runs `notify-program` for new issues: the summary after its own arguments, the JSON on its input, stopped
    /// after `notifyTimeout` seconds.
    public static func notify(_ command: HookCommand, _ notice: NewIssuesNotice, timeout: TimeInterval = notifyTimeout,
                              path: String? = ProcessInfo.processInfo.environment["PATH"]) -> Failure? {
        run(command.invocation(appending: notice.summary), role: "notify-program", input: notice.json,
            wait: .finish(seconds: timeout), path: path)
    }

    /// A program that exits without reading all of its input must fail our write (EPIPE), not end Newsstand.
    private static let ignoringBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// A program by path (it has a `/`), else the first executable of that name on `path`.
    public static func find(_ program: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> URL? {
        Subprocess.find(program, searchPath: path)
    }

    /// What a program wrote on stderr (the first 16 KB), from the pipe's thread.
    private final class ErrorText: Sendable {
        private let data = Mutex(Data())

        func append(_ more: Data) { data.withLock { data in if data.count < 16_384 { data.append(more.prefix(16_384 - data.count)) } } }

        /// Its last line that says something, made safe for one line of the screen.
        var lastLine: String? {
            let text = data.withLock { String(decoding: $0, as: UTF8.self) }
            guard let line = text.split(whereSeparator: \.isNewline).last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else { return nil }
            let clean = String(line.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }.map(Character.init))
            return String(clean.prefix(200))
        }
    }
}

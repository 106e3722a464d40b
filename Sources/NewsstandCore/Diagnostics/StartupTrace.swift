#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opt-in marks of the way to the first frame, for finding where start-up time goes: with
/// `NEWSSTAND_STARTUP_TRACE=FILE` each `mark` appends a line `SECONDS NAME` to FILE, SECONDS being CLOCK_MONOTONIC
/// (the clock `newsstand-bench` takes its spawn time from, so the two can be subtracted). Unset (the usual case),
/// a mark costs one check of a flag read once.
public enum StartupTrace {
    /// The trace file's descriptor, or -1 when tracing is off.
    private static let file: Int32 = {
        guard let path = getenv("NEWSSTAND_STARTUP_TRACE"), path.pointee != 0 else { return -1 }
        return open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    }()

    /// Notes that the program got to `name` now.
    public static func mark(_ name: StaticString) {
        guard file >= 0 else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let line = "\(now.tv_sec).\(String(now.tv_nsec / 1_000 + 1_000_000).dropFirst()) \(name)\n"
        _ = line.withCString { write(file, $0, strlen($0)) }
    }
}

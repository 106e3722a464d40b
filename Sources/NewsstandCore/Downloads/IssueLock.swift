import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive hold on one issue's download, shared by every Newsstand process on a library:
/// a non-blocking `flock` on `partial/ISSUEID.lock`.
///
/// `flock` locks belong to an open file description, so two `open()`s conflict even within one
/// process (two `DownloadQueue`s on one library), and the kernel releases the lock when the
/// process dies, however it dies. The file is removed on release while still locked; a taker
/// checks after locking that the path still names the file it locked (else it locked a removed
/// file and tries again), so removing never lets two holders in.
final class IssueLock: Sendable {
    let file: URL
    /// The open lock file; -1 once released.
    private let descriptor: Mutex<Int32>

    private init(file: URL, descriptor: Int32) {
        self.file = file
        self.descriptor = Mutex(descriptor)
    }

    deinit { release() }

    /// Takes the lock if nobody holds it; nil when another process (or another open of the file) does.
    /// Throws when the lock file cannot be opened at all.
    static func tryAcquire(_ file: URL) throws -> IssueLock? {
        for _ in 0..<8 {
            let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw DownloadError("cannot open the lock file \(file.lastPathComponent): \(String(cString: strerror(errno)))") }
            if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                let error = errno
                close(descriptor)
                if error == EWOULDBLOCK || error == EINTR { return nil }
                throw DownloadError("cannot lock \(file.lastPathComponent): \(String(cString: strerror(error)))")
            }
            // The holder before us may have removed the file between our open and our flock.
            var held = stat(), named = stat()
            if fstat(descriptor, &held) == 0, stat(file.path, &named) == 0, held.st_ino == named.st_ino, held.st_dev == named.st_dev {
                return IssueLock(file: file, descriptor: descriptor)
            }
            close(descriptor)
        }
        return nil
    }

    /// Whether some holder has the lock right now (takes and drops it to find out).
    static func isHeld(_ file: URL) -> Bool {
        guard FileManager.default.fileExists(atPath: file.path) else { return false }
        guard let lock = try? tryAcquire(file) else { return true }
        lock.release()
        return false
    }

    /// Removes a lock file nobody holds (a process that died left it); leaves a held one alone.
    static func removeIfStale(_ file: URL) {
        _ = isHeld(file)
    }

    /// Removes the lock file and lets go; safe to call twice.
    func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            unlink(file.path)
            close(descriptor)
            descriptor = -1
        }
    }
}

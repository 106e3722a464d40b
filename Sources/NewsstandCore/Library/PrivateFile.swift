import Foundation

/// Replaces a file readable by its owner alone with new bytes, all at once: they are written under a hidden name of
/// their own in the same folder (`mkstemp`, mode 0600, so two processes writing at once never share one), then renamed
/// over the old file, so a reader finds the old file or the new one, whole. Saved logins and the kept shelf are written so.
public enum PrivateFile {
    /// Why the file could not be replaced, naming the file or folder and the system's reason. The old file is then as it was.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes `bytes` as `file`. `durable`: the new file and its folder are synced to the disk too, so that a crash
    /// or a power cut right after leaves the new file (for what cannot be worked out again, such as logins).
    public static func replace(_ file: URL, with bytes: [UInt8], durable: Bool) throws(Failure) {
        let directory = file.deletingLastPathComponent()
        var template = Array((directory.path + "/." + file.lastPathComponent + "-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Failure("cannot write in \(directory.path)") }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            var offset = 0
            while offset < bytes.count {
                let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw Failure("cannot write \(file.path)")
                }
                offset += count
            }
            if durable, fsync(descriptor) != 0 { throw Failure("cannot write \(file.path)") }
        }
        guard rename(temporary, file.path) == 0 else { throw Failure("cannot replace \(file.path)") }
        renamed = true
        guard durable else { return }
        let folder = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }
}

extension PrivateFile.Failure {
    /// `what`, then the reason `errno` gives now.
    init(_ what: String) {
        description = "\(what): \(String(cString: strerror(errno)))"
    }
}

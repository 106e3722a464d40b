import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A sink that writes the body to an open file, from its current offset, in blocks (one `write` per block
/// rather than per 16 KiB network chunk). The download side wraps it to add its own checks (free space,
/// the partial file's lock) and calls ``write(_:)`` and ``flush()`` itself.
public final class HTTPFileSink: HTTPBodySink, @unchecked Sendable {
    /// Bytes gathered before they are written.
    public let blockSize: Int
    private let fileHandle: FileHandle
    private let label: String
    private let lock = NSLock()
    private var block: UnsafeMutableRawBufferPointer
    private var blockCount = 0
    private var written: Int64 = 0

    /// Writes to `fileHandle` (kept open by the sink; the caller closes it). `label` names the file in messages:
    /// "the download".
    public init(fileHandle: FileHandle, label: String = "the file", blockSize: Int = 1 << 20) {
        self.fileHandle = fileHandle
        self.label = label
        self.blockSize = max(1, blockSize)
        block = UnsafeMutableRawBufferPointer.allocate(byteCount: self.blockSize, alignment: 16)
    }

    deinit {
        block.deallocate()
    }

    public func receive(_ bytes: UnsafeRawBufferPointer, from transfer: HTTPTransfer) -> HTTPSinkVerdict {
        do {
            try write(bytes)
            return .accepted
        } catch {
            return .failed((error as? HTTPError)?.description ?? "cannot write \(label): \(error)")
        }
    }

    public func finish() throws {
        try flush()
    }

    /// Adds bytes to the block, writing it out whenever it fills. Throws ``HTTPError/sink(_:)``.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        lock.lock()
        defer { lock.unlock() }
        var offset = 0
        while offset < bytes.count {
            let count = min(blockSize - blockCount, bytes.count - offset)
            (block.baseAddress! + blockCount).copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
            blockCount += count
            offset += count
            if blockCount == blockSize { try writeBlock() }
        }
    }

    /// Writes out the bytes gathered so far. Throws ``HTTPError/sink(_:)``.
    public func flush() throws {
        lock.lock()
        defer { lock.unlock() }
        try writeBlock()
    }

    /// Bytes written to the file so far (not counting those still in the block).
    public var bytesWritten: Int64 {
        lock.lock()
        defer { lock.unlock() }
        return written
    }

    private static func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, bytes, count)
        #else
        Darwin.write(fd, bytes, count)
        #endif
    }

    /// Called with `lock` held.
    private func writeBlock() throws {
        var offset = 0
        while offset < blockCount {
            let result = Self.systemWrite(fileHandle.fileDescriptor, block.baseAddress! + offset, blockCount - offset)
            if result < 0 {
                if errno == EINTR { continue }
                throw HTTPError.sink("cannot write \(label): \(String(cString: strerror(errno)))")
            }
            offset += result
        }
        written += Int64(blockCount)
        blockCount = 0
    }
}

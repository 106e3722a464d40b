import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A sink that writes the body to an open file, from its current offset, in blocks (one `write` per block
/// rather than per 16 KiB network chunk). The download side wraps it to add its own checks (free space,
/// the partial file's lock) and calls ``write(_:)`` and ``flush()`` itself.
public final class HTTPFileSink: HTTPBodySink, Sendable {
    /// Bytes gathered before they are written.
    public let blockSize: Int
    private let fileHandle: FileHandle
    private let label: String
    private let block: Mutex<Block>

    /// The bytes gathered and not yet written, and the count of those written.
    private struct Block {
        let held: HeldBlock
        var written: Int64 = 0

        /// Writes the gathered bytes to `descriptor` (`label` names it in a message).
        mutating func writeOut(to descriptor: Int32, label: String) throws(HTTPError) {
            var offset = 0
            while offset < held.count {
                let result = HTTPFileSink.systemWrite(descriptor, held.storage + offset, held.count - offset)
                if result < 0 {
                    if errno == EINTR { continue }
                    throw HTTPError.sink("cannot write \(label): \(String(cString: strerror(errno)))")
                }
                offset += result
            }
            written += Int64(held.count)
            held.count = 0
        }
    }

    /// Writes to `fileHandle` (kept open by the sink; the caller closes it). `label` names the file in messages:
    /// "the download".
    public init(fileHandle: FileHandle, label: String = "the file", blockSize: Int = 1 << 20) {
        self.fileHandle = fileHandle
        self.label = label
        self.blockSize = max(1, blockSize)
        block = Mutex(Block(held: HeldBlock(capacity: self.blockSize)))
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
        try block.withLock { block throws(HTTPError) in
            var offset = 0
            while offset < bytes.count {
                let count = min(block.held.room, bytes.count - offset)
                block.held.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]))
                offset += count
                if block.held.isFull { try block.writeOut(to: fileHandle.fileDescriptor, label: label) }
            }
        }
    }

    /// Writes out the bytes gathered so far. Throws ``HTTPError/sink(_:)``.
    public func flush() throws {
        try block.withLock { block throws(HTTPError) in try block.writeOut(to: fileHandle.fileDescriptor, label: label) }
    }

    /// Bytes written to the file so far (not counting those still in the block).
    public var bytesWritten: Int64 { block.withLock { $0.written } }

    fileprivate static func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, bytes, count)
        #else
        Darwin.write(fd, bytes, count)
        #endif
    }

}

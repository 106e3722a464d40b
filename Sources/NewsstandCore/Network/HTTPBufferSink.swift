import Foundation

/// A sink that keeps the body in memory, never more than its capacity plus one network chunk.
///
/// With `.fail`, bytes that would take it past `capacity` fail the transfer (a blocking fetch of a small
/// resource). With `.pause`, a full buffer pauses the transfer until ``take()`` empties it: the reader sets
/// the pace, and the buffer holds at most `capacity` plus one chunk (16 KiB) whatever the server sends.
public final class HTTPBufferSink: HTTPBodySink, @unchecked Sendable {
    /// What a full buffer does.
    public enum WhenFull: Sendable {
        case fail
        case pause
    }

    public let capacity: Int
    public let whenFull: WhenFull
    private let lock = NSLock()
    private var buffer = Data()
    private var pausedTransfer: HTTPTransfer?
    private var peak = 0
    private var total: Int64 = 0
    private var pauses = 0

    public init(capacity: Int, whenFull: WhenFull = .fail) {
        self.capacity = max(0, capacity)
        self.whenFull = whenFull
    }

    public func receive(_ bytes: UnsafeRawBufferPointer, from transfer: HTTPTransfer) -> HTTPSinkVerdict {
        lock.lock()
        defer { lock.unlock() }
        switch whenFull {
        case .fail where buffer.count + bytes.count > capacity:
            return .failed("the response is larger than \(HTTPError.size(Int64(capacity))) (the buffer's capacity)")
        case .pause where buffer.count >= capacity:
            if pausedTransfer == nil { pauses += 1 }
            pausedTransfer = transfer
            return .full
        default:
            buffer.append(contentsOf: bytes)
            total += Int64(bytes.count)
            peak = max(peak, buffer.count)
            return .accepted
        }
    }

    /// Removes and returns the bytes held, and resumes the transfer if a full buffer paused it.
    public func take() -> Data {
        lock.lock()
        let taken = buffer
        buffer = Data()
        let paused = pausedTransfer
        pausedTransfer = nil
        lock.unlock()
        paused?.resume()
        return taken
    }

    /// The bytes held (a copy; they stay held).
    public var data: Data {
        lock.lock()
        defer { lock.unlock() }
        return buffer
    }

    /// The most bytes held at any moment.
    public var peakHeldBytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return peak
    }

    /// Every byte accepted so far, taken or not.
    public var receivedBytes: Int64 {
        lock.lock()
        defer { lock.unlock() }
        return total
    }

    /// How many times a full buffer paused its transfer.
    public var timesPaused: Int {
        lock.lock()
        defer { lock.unlock() }
        return pauses
    }

    /// Whether the buffer paused its transfer and waits for ``take()``.
    public var isPausingTransfer: Bool {
        lock.lock()
        defer { lock.unlock() }
        return pausedTransfer != nil
    }
}

import Foundation
import Synchronization

/// A sink that keeps the body in memory, never more than its capacity plus one network chunk.
///
/// With `.fail`, bytes that would take it past `capacity` fail the transfer (a blocking fetch of a small
/// resource). With `.pause`, a full buffer pauses the transfer until ``take()`` empties it: the reader sets
/// the pace, and the buffer holds at most `capacity` plus one chunk (16 KiB) whatever the server sends.
public final class HTTPBufferSink: HTTPBodySink, Sendable {
    /// What a full buffer does.
    public enum WhenFull: Sendable {
        case fail
        case pause
    }

    public let capacity: Int
    public let whenFull: WhenFull
    private let held = Mutex(Held())

    /// The bytes held and what the buffer has seen.
    private struct Held {
        var buffer = Data()
        var pausedTransfer: HTTPTransfer?
        var peak = 0
        var total: Int64 = 0
        var pauses = 0
    }

    public init(capacity: Int, whenFull: WhenFull = .fail) {
        self.capacity = max(0, capacity)
        self.whenFull = whenFull
    }

    public func receive(_ bytes: UnsafeRawBufferPointer, from transfer: HTTPTransfer) -> HTTPSinkVerdict {
        held.withLock { held in
            switch whenFull {
            case .fail where held.buffer.count + bytes.count > capacity:
                return .failed("the response is larger than \(HTTPError.size(Int64(capacity))) (the buffer's capacity)")
            case .pause where held.buffer.count >= capacity:
                if held.pausedTransfer == nil { held.pauses += 1 }
                held.pausedTransfer = transfer
                return .full
            default:
                held.buffer.append(contentsOf: bytes)
                held.total += Int64(bytes.count)
                held.peak = max(held.peak, held.buffer.count)
                return .accepted
            }
        }
    }

    /// Removes and returns the bytes held, and resumes the transfer if a full buffer paused it.
    public func take() -> Data {
        let (taken, paused) = held.withLock { held in
            defer {
                held.buffer = Data()
                held.pausedTransfer = nil
            }
            return (held.buffer, held.pausedTransfer)
        }
        paused?.resume()
        return taken
    }

    /// The bytes held (a copy; they stay held).
    public var data: Data { held.withLock { $0.buffer } }

    /// The most bytes held at any moment.
    public var peakHeldBytes: Int { held.withLock { $0.peak } }

    /// Every byte accepted so far, taken or not.
    public var receivedBytes: Int64 { held.withLock { $0.total } }

    /// How many times a full buffer paused its transfer.
    public var timesPaused: Int { held.withLock { $0.pauses } }

    /// Whether the buffer paused its transfer and waits for ``take()``.
    public var isPausingTransfer: Bool { held.withLock { $0.pausedTransfer != nil } }
}

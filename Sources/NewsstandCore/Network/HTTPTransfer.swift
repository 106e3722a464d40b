import Foundation
import Synchronization

/// A transfer started with ``HTTPClient/start(_:sink:events:)``: cancel it, or resume it after its sink paused it.
public final class HTTPTransfer: Sendable {
    public let request: HTTPRequest
    let id: Int
    /// nil when the network cannot be used (libcurl is missing): the transfer failed as it started.
    private let loop: NetworkLoop?
    /// The client, kept alive while its transfer may run (its end shuts the network thread down).
    private let client: HTTPClient
    /// Held around every call into the sink and the event handler, so `cancel()` can promise that neither is
    /// called again once it returns. Recursive: a sink or handler may cancel its own transfer.
    private let callbackLock = NSRecursiveLock()
    /// Set once, under `callbackLock` (so a callback running on another thread is waited for).
    private let cancelled = Atomic(false)

    init(request: HTTPRequest, id: Int, loop: NetworkLoop?, client: HTTPClient) {
        self.request = request
        self.id = id
        self.loop = loop
        self.client = client
    }

    /// Stops the transfer. Once this returns, the sink is not called again and the only event still to come is
    /// `.failed(.cancelled)` (unless the transfer had already ended). May be called from any thread, the sink
    /// and the event handler included, and more than once.
    public func cancel() {
        let first = callbackLock.withLock { !cancelled.exchange(true, ordering: .relaxed) }
        if first { loop?.submit(.cancel(id)) }
    }

    /// Lets a transfer paused by its sink (``HTTPSinkVerdict/full``) continue: the bytes the sink refused come
    /// again. Harmless when the transfer is not paused. May be called from any thread.
    public func resume() {
        loop?.submit(.resume(id))
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool {
        callbackLock.withLock { cancelled.load(ordering: .relaxed) }
    }

    /// Runs `body` (a call into the sink or the event handler) unless the transfer was cancelled; nil if it was.
    func unlessCancelled<Value>(_ body: () throws -> Value) rethrows -> Value? {
        callbackLock.lock()
        defer { callbackLock.unlock() }
        guard !cancelled.load(ordering: .relaxed) else { return nil }
        return try body()
    }
}

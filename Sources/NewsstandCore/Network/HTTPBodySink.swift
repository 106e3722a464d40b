/// Where a transfer's body goes, as it arrives: ``HTTPBufferSink`` (memory) and ``HTTPFileSink`` (a file),
/// or the caller's own.
///
/// Both methods are called on the client's network thread, which serves every transfer: return quickly, never
/// wait for another transfer, never call ``HTTPClient/fetch(_:)``. Once ``HTTPTransfer/cancel()`` returns, the
/// sink is not called again.
public protocol HTTPBodySink: AnyObject, Sendable {
    /// Body bytes as they arrive, decoded (at most `CURL_MAX_WRITE_SIZE`, 16 KiB, at a time). The pointer is
    /// valid only during the call.
    func receive(_ bytes: UnsafeRawBufferPointer, from transfer: HTTPTransfer) -> HTTPSinkVerdict
    /// The whole body has arrived: write out anything held back. A thrown error fails the transfer with
    /// ``HTTPError/sink(_:)`` (its description as the reason). Not called when the transfer fails.
    func finish() throws
}

extension HTTPBodySink {
    public func finish() throws {}
}

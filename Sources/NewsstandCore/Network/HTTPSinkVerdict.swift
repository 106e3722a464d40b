/// What a sink says to the bytes it was handed.
public enum HTTPSinkVerdict: Sendable, Equatable {
    /// Taken, all of them.
    case accepted
    /// None taken: the sink is full. The transfer pauses and the same bytes come again once the sink calls
    /// ``HTTPTransfer/resume()``. Back-pressure: the server waits, nothing piles up in memory.
    case full
    /// None taken, and the transfer fails with ``HTTPError/sink(_:)`` and this reason in plain words.
    case failed(String)
}

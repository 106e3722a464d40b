/// What a transfer reports to its caller, in order: `response` once, before the first body byte reaches the sink;
/// `progress` now and then; then exactly one of `finished` or `failed`.
public enum HTTPEvent: Sendable, Equatable {
    /// The final response's head: a success (2xx) or 304 Not Modified. Any other status ends the transfer with
    /// ``HTTPError/status(_:)`` instead, and its body never reaches the sink.
    case response(HTTPResponseHead)
    /// Body bytes received so far off the network (before decoding), and the length announced, if any.
    /// At most about ten a second.
    case progress(received: Int64, expected: Int64?)
    /// Every byte reached the sink and the sink finished.
    case finished
    case failed(HTTPError)
}

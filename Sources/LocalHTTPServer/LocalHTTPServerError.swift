/// Why ``LocalHTTPServer/start(port:)`` failed.
public enum LocalHTTPServerError: Error, Equatable, Sendable {
    /// `start` was called on a server that is already running.
    case alreadyRunning
    /// A socket call failed; `call` names it, `errno` is the C error number.
    case socketCall(call: String, errno: Int32)
}

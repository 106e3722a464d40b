import Foundation

/// Why an account's server could not be used, in plain words (never with a password or token in them).
public enum AccountError: Error, Sendable, Equatable, CustomStringConvertible {
    /// ClientLogin refused the user or password.
    case loginRejected(server: String, user: String)
    /// The session (the Auth token) is no longer accepted: log in again.
    case sessionExpired(server: String)
    /// The answer is not the API's (an HTML page, say): the address is probably not the API's.
    case notTheAPI(server: String, detail: String)
    /// The API answered something it should not have.
    case unexpectedAnswer(server: String, detail: String)
    /// The transfer itself failed (limits, connection…).
    case transfer(HTTPError)
    /// No account is set up for that address.
    case noSuchAccount(String)
    /// The account's saved session could not be found or saved.
    case session(String)

    public var description: String {
        switch self {
        case let .loginRejected(server, user):
            return "\(server) did not accept the user or password of \(user) (for FreshRSS, the API password set in its profile)"
        case let .sessionExpired(server):
            return "\(server) no longer accepts the saved session; log in again with newsstand account add"
        case let .notTheAPI(server, detail):
            return "\(server) did not answer as the Google Reader API (\(detail)); give the API's address, like https://host/api/greader.php"
        case let .unexpectedAnswer(server, detail):
            return "\(server) gave an answer that could not be read: \(detail)"
        case let .transfer(error):
            return "\(error)"
        case let .noSuchAccount(url):
            return "no account for \(url) (newsstand account list shows them)"
        case let .session(detail):
            return detail
        }
    }
}

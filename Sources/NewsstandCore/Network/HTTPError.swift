import Foundation

/// Why a transfer failed, in plain words: `description` names the host (never a user's password or a URL's
/// credentials), the limit that was passed and, where the user can change it, how.
public enum HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The body passed a size limit: as decoded (`isDecoded`, what it unpacks to) or as received.
    case tooLarge(subject: String, limit: Int64, limitName: String, remedy: String?, isDecoded: Bool)
    /// 401 with a challenge (`WWW-Authenticate`) and no login to offer (none in the credential source or `.netrc`).
    case loginRequired(host: String, realm: String?)
    /// 401 again after a login was offered: the server does not accept it.
    case loginRejected(host: String, realm: String?, user: String)
    /// 407 from the proxy named by `http_proxy`, `https_proxy` or `all_proxy`.
    case proxyLoginRequired
    /// Nothing arrived for `seconds` (the low-speed limit).
    case stalled(host: String, seconds: Int)
    /// Bytes arrived, but slower than the low-speed limit for `seconds`.
    case tooSlow(host: String, bytesPerSecond: Int, seconds: Int)
    /// The whole transfer took longer than its deadline.
    case deadlineExceeded(host: String, seconds: Double)
    /// No connection within the connect timeout.
    case connectTimeout(host: String, seconds: Double)
    case tooManyRedirects(host: String, limit: Int)
    /// A redirect from an https URL to an http one, refused.
    case insecureRedirect(host: String)
    /// A redirect to anything but http or https (a local `file:`, `ftp:`…), refused: the server reaches only the network.
    case refusedRedirect(host: String, scheme: String)
    /// The server's certificate could not be verified.
    case certificate(host: String, detail: String)
    /// The TLS handshake failed for another reason.
    case secureConnection(host: String, detail: String)
    /// Name resolution or connecting failed.
    case cannotConnect(host: String, detail: String)
    /// The final response was not a success (2xx) or 304, nor a 401 with a challenge or a 407 (which have their
    /// own cases).
    case status(HTTPResponseHead)
    /// The connection closed before the announced length arrived.
    case truncated(host: String, received: Int64, expected: Int64?)
    /// The connection broke mid-transfer.
    case connectionLost(host: String, detail: String)
    /// The body's content encoding (gzip, deflate, brotli) could not be decoded.
    case undecodable(host: String, detail: String)
    /// The sink refused the bytes (a full disk, say): its reason, as given.
    case sink(String)
    /// Not an http or https URL.
    case unsupportedURL(String)
    case cancelled
    /// libcurl could not be opened (or initialised) on this machine: the dynamic loader's words.
    case networkUnavailable(detail: String)
    /// Anything else libcurl reports, in its words.
    case other(host: String, detail: String)

    public var description: String {
        switch self {
        case let .tooLarge(subject, limit, limitName, remedy, isDecoded):
            let verb = isDecoded ? "unpacks to more than" : "is larger than"
            return "\(subject) \(verb) \(Self.size(limit)) (\(limitName))" + (remedy.map { "; \($0)" } ?? "")
        case let .loginRequired(host, realm):
            return "\(host) asks for a login" + Self.realmText(realm)
        case let .loginRejected(host, realm, user):
            return "\(host) did not accept the login for \(user)" + Self.realmText(realm)
        case .proxyLoginRequired:
            return "the proxy asks for a login; give it in the proxy setting (http_proxy, https_proxy or all_proxy) as http://USER:PASSWORD@HOST:PORT"
        case let .stalled(host, seconds):
            return "\(host) stopped sending for \(seconds) s"
        case let .tooSlow(host, bytesPerSecond, seconds):
            return "\(host) sent less than \(Self.size(Int64(bytesPerSecond)))/s for \(seconds) s"
        case let .deadlineExceeded(host, seconds):
            return "\(host) took longer than \(Self.seconds(seconds)) s"
        case let .connectTimeout(host, seconds):
            return "cannot reach \(host): no connection within \(Self.seconds(seconds)) s"
        case let .tooManyRedirects(host, limit):
            return "too many redirects (more than \(limit)) from \(host)"
        case let .insecureRedirect(host):
            return "refused a redirect from https to http (from \(host)): it would send the request unencrypted"
        case let .refusedRedirect(host, scheme):
            let target = scheme == "file" ? "a local file" : "an address of another kind (\(scheme):)"
            return "refused a redirect from \(host) to \(target): only http and https are followed"
        case let .certificate(host, detail):
            return "the certificate of \(host) cannot be trusted: \(detail)"
        case let .secureConnection(host, detail):
            return "cannot make a secure connection to \(host): \(detail)"
        case let .cannotConnect(host, detail):
            return "cannot reach \(host): \(detail)"
        case let .status(head):
            let host = head.url.host ?? "the server"
            let path = head.url.path.isEmpty ? "/" : head.url.path
            return "\(host) answered \(head.status) \(head.reasonForMessages) for \(path)"
        case let .truncated(host, received, expected):
            if let expected { return "the connection to \(host) closed after \(received) of \(expected) bytes" }
            return "the connection to \(host) closed early, after \(received) bytes"
        case let .connectionLost(host, detail):
            return "the connection to \(host) broke: \(detail)"
        case let .undecodable(host, detail):
            return "\(host) sent a body that cannot be decoded: \(detail)"
        case let .sink(reason):
            return reason
        case let .unsupportedURL(url):
            return "cannot fetch \(url): only http and https are supported"
        case .cancelled:
            return "cancelled"
        case let .networkUnavailable(detail):
            return "the network cannot be used: libcurl could not be loaded (\(detail)); install Debian's libcurl4 package"
        case let .other(host, detail):
            return "fetching from \(host) failed: \(detail)"
        }
    }

    /// Whether the same request may work later (time-outs, broken connections, 408, 429, 5xx): worth a retry.
    public var isTransient: Bool {
        switch self {
        case .stalled, .tooSlow, .deadlineExceeded, .connectTimeout, .cannotConnect, .truncated, .connectionLost, .other:
            true
        case .status(let head):
            head.status == 408 || head.status == 429 || (500...599).contains(head.status)
        default:
            false
        }
    }

    /// "64 MB", "1.5 MB", "300 KB", "12 bytes" (binary units, as the limits are set).
    static func size(_ bytes: Int64) -> String {
        for (unit, name) in [(Int64(1) << 30, "GB"), (Int64(1) << 20, "MB"), (Int64(1) << 10, "KB")] where bytes >= unit {
            if bytes % unit == 0 { return "\(bytes / unit) \(name)" }
            return "\((Double(bytes) / Double(unit) * 10).rounded() / 10) \(name)"
        }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String((value * 10).rounded() / 10)
    }

    private static func realmText(_ realm: String?) -> String {
        guard let realm, !realm.isEmpty else { return "" }
        return " (\u{201C}\(realm)\u{201D})"
    }
}

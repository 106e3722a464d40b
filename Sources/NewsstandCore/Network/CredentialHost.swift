import Foundation

/// The server a login is kept for: a host name or address, and a port when it is not the scheme's default.
///
/// Host names are compared without case; an IPv6 address is kept without its brackets (`::1`) and written
/// with them (`[::1]:8080`). A nil port is the scheme's default (80 for http, 443 for https), so a login
/// saved for `example.com` serves both `http://example.com/` and `https://example.com/`.
public struct CredentialHost: Hashable, Sendable, CustomStringConvertible {
    /// Lowercased; an IPv6 address without brackets.
    public let host: String
    /// Nil for the scheme's default port.
    public let port: Int?

    public init(host: String, port: Int? = nil) {
        var name = host.lowercased()
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        self.host = name
        self.port = port
    }

    /// The server of a URL (its user information, if any, is ignored); nil when the URL names no host.
    /// The scheme's default port is dropped: `https://example.com:443/` is `example.com`.
    public init?(url: URL) {
        self.init(URLCredentials.split(url.absoluteString).address)
    }

    /// Reads what a person types for a server: a URL (`https://example.com:8443/feed`), `HOST`, `HOST:PORT`,
    /// `[IPV6]`, `[IPV6]:PORT` or a bare IPv6 address. Without a scheme, ports 80 and 443 count as the default.
    public init?(_ text: String) {
        let trimmed = URLCredentials.split(text).address
        if let schemeEnd = trimmed.range(of: "://") {
            let scheme = trimmed[..<schemeEnd.lowerBound].lowercased()
            let rest = trimmed[schemeEnd.upperBound...]
            let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            guard let parsed = Self.parse(String(authority)) else { return nil }
            let defaultPort = ["http": 80, "https": 443][scheme]
            self.init(host: parsed.host, port: parsed.port == defaultPort ? nil : parsed.port)
        } else {
            guard let parsed = Self.parse(trimmed) else { return nil }
            self.init(host: parsed.host, port: parsed.port == 80 || parsed.port == 443 ? nil : parsed.port)
        }
    }

    /// `HOST[:PORT]` exactly as `description` writes it (the credentials file's first field): no port dropped.
    init?(field: String) {
        guard let parsed = Self.parse(field) else { return nil }
        self.init(host: parsed.host, port: parsed.port)
    }

    /// `example.com`, `example.com:8080`, `[::1]:8080`.
    public var description: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port.map { "\(name):\($0)" } ?? name
    }

    /// Splits `HOST`, `HOST:PORT`, `[V6]`, `[V6]:PORT` or a bare IPv6 address; nil for an empty host or a bad port.
    private static func parse(_ text: String) -> (host: String, port: Int?)? {
        let text = text.trimmingCharacters(in: .whitespaces)
        let host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
        } else if text.filter({ $0 == ":" }).count > 1 {
            host = Substring(text)   // a bare IPv6 address: no port can follow it
        } else if let colon = text.firstIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            host = Substring(text)
        }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "@" }) else { return nil }
        guard let portText else { return (String(host), nil) }
        if portText.isEmpty { return (String(host), nil) }
        guard portText.allSatisfy(\.isASCII), let port = Int(portText), (1...65535).contains(port) else { return nil }
        return (String(host), port)
    }
}

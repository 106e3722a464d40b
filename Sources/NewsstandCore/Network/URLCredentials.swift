import Foundation

/// A URL split into the address without its user information and the login it carried
/// (`https://alice:s%40cret@example.com/feed` → `https://example.com/feed`, alice, s@cret).
///
/// The split works on the text, before anything parses it as a URL, so a password never reaches a
/// `URL` the library keeps or a message that quotes one. The user information is what comes before
/// the last `@` of the authority (the part after `scheme://`, up to the first `/`, `?` or `#`); the user
/// is what comes before its first `:`, the password what comes after; both are percent-decoded.
/// `user@host` gives a user without a password, so no `credentials`.
public struct URLCredentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The text without its user information (and without surrounding white space), otherwise unchanged.
    public var address: String
    /// The percent-decoded user name, when the URL had one.
    public var user: String?
    /// The percent-decoded password, when the URL had one (even empty).
    public var password: String?

    /// The login the URL carried: a user and a non-empty password.
    public var credentials: Credentials? {
        guard let user, !user.isEmpty, let password, !password.isEmpty else { return nil }
        return Credentials(user: user, password: password)
    }

    /// Whether the URL had user information at all (even a lone `@`).
    public var hadUserInformation: Bool

    /// Never shows the password.
    public var description: String {
        guard hadUserInformation else { return address }
        return address + " (user " + (user ?? "") + (password == nil ? "" : ", password hidden") + ")"
    }

    public var debugDescription: String { description }

    /// Splits `text` (a URL as typed, pasted or read from a file).
    public static func split(_ text: String) -> URLCredentials {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let parts = authority(of: trimmed), let at = parts.authority.lastIndex(of: "@") else {
            return URLCredentials(address: trimmed, user: nil, password: nil, hadUserInformation: false)
        }
        let userInformation = parts.authority[..<at]
        let address = String(trimmed[..<parts.authority.startIndex]) + String(trimmed[trimmed.index(after: at)...])
        var user: String?
        var password: String?
        if let colon = userInformation.firstIndex(of: ":") {
            user = decoded(userInformation[..<colon])
            password = decoded(userInformation[userInformation.index(after: colon)...])
        } else if !userInformation.isEmpty {
            user = decoded(userInformation)
        }
        return URLCredentials(address: address, user: user, password: password, hadUserInformation: true)
    }

    /// Splits a URL: the URL without its user information, and the login it carried.
    public static func split(_ url: URL) -> (url: URL, credentials: Credentials?) {
        let parts = split(url.absoluteString)
        guard parts.hadUserInformation else { return (url, nil) }
        return (URL(string: parts.address) ?? url, parts.credentials)
    }

    /// `url` without its user information.
    public static func removingUserInformation(from url: URL) -> URL {
        split(url).url
    }

    /// `text` as a field may show it while it is typed: the password part of the user information replaced by
    /// one `•` per character, so the result has as many characters as `text` (the cursor stays where it was).
    /// While the `@` is not typed yet, what follows a `:` in the authority is masked unless it is all digits
    /// (then it reads as a port).
    public static func maskingPassword(in text: String) -> String {
        guard let parts = authority(of: text) else { return text }
        let authority = parts.authority
        let secret: Range<String.Index>
        if let at = authority.lastIndex(of: "@") {
            guard let colon = authority[..<at].firstIndex(of: ":") else { return text }
            secret = authority.index(after: colon)..<at
        } else {
            guard !authority.hasPrefix("["), let colon = authority.firstIndex(of: ":") else { return text }
            let rest = authority[authority.index(after: colon)...]
            guard !rest.allSatisfy({ $0.isASCII && $0.isNumber }) else { return text }
            secret = rest.startIndex..<rest.endIndex
        }
        let count = text[secret].count
        return String(text[..<secret.lowerBound]) + String(repeating: "•", count: count) + String(text[secret.upperBound...])
    }

    /// The authority of `scheme://authority/…`, as a slice of `text`; nil when there is no `scheme://`.
    private static func authority(of text: String) -> (scheme: Substring, authority: Substring)? {
        guard let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }) else { return nil }
        let rest = text[separator.upperBound...]
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        return (scheme, rest[..<end])
    }

    private static func decoded(_ text: Substring) -> String {
        String(text).removingPercentEncoding ?? String(text)
    }
}

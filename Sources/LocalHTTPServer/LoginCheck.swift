import CCrypto
import Foundation

/// Checks the `Authorization` (or `Proxy-Authorization`) header of a request against a ``RequiredLogin``, and
/// words the challenge that asks for it: Basic, or Digest after RFC 7616 with MD5 and `qop="auth"`.
struct LoginCheck {
    let login: RequiredLogin
    /// The server's nonce (one per server instance; never stale).
    let nonce: String

    /// The `WWW-Authenticate` (or `Proxy-Authenticate`) value.
    var challenge: String {
        switch login.scheme {
        case .basic:
            return "Basic realm=\"\(login.realm)\", charset=\"UTF-8\""
        case .digest:
            return "Digest realm=\"\(login.realm)\", qop=\"auth\", algorithm=MD5, nonce=\"\(nonce)\", opaque=\"\(Self.md5Hex(nonce))\""
        }
    }

    /// Whether `authorization` proves the login for a request of `method` to `target`.
    func accepts(_ authorization: String?, method: String, target: String) -> Bool {
        guard let authorization else { return false }
        let trimmed = authorization.trimmingCharacters(in: .whitespaces)
        guard let space = trimmed.firstIndex(of: " ") else { return false }
        let scheme = trimmed[..<space].lowercased()
        let rest = String(trimmed[trimmed.index(after: space)...]).trimmingCharacters(in: .whitespaces)
        switch (login.scheme, scheme) {
        case (.basic, "basic"):
            guard let decoded = Data(base64Encoded: rest), let text = String(data: decoded, encoding: .utf8) else { return false }
            return text == "\(login.user):\(login.password)"
        case (.digest, "digest"):
            let fields = Self.parameters(rest)
            guard fields["username"] == login.user, fields["realm"] == login.realm, fields["nonce"] == nonce,
                  let uri = fields["uri"], uri == target, let response = fields["response"]?.lowercased() else { return false }
            if let algorithm = fields["algorithm"], algorithm.uppercased() != "MD5" { return false }
            let ha1 = Self.md5Hex("\(login.user):\(login.realm):\(login.password)")
            let ha2 = Self.md5Hex("\(method):\(uri)")
            let expected: String
            if let qop = fields["qop"] {
                guard qop == "auth", let count = fields["nc"], let clientNonce = fields["cnonce"] else { return false }
                expected = Self.md5Hex("\(ha1):\(nonce):\(count):\(clientNonce):\(qop):\(ha2)")
            } else {
                expected = Self.md5Hex("\(ha1):\(nonce):\(ha2)")  // RFC 2069, without qop
            }
            return response == expected
        default:
            return false
        }
    }

    /// `name=value, name="quoted \" value"` pairs, names lowercased.
    static func parameters(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var index = text.startIndex
        func skip(_ characters: Set<Character>) {
            while index < text.endIndex, characters.contains(text[index]) { index = text.index(after: index) }
        }
        while index < text.endIndex {
            skip([" ", "\t", ","])
            let nameStart = index
            while index < text.endIndex, text[index] != "=", text[index] != "," { index = text.index(after: index) }
            let name = text[nameStart..<index].trimmingCharacters(in: .whitespaces).lowercased()
            guard index < text.endIndex, text[index] == "=" else { continue }
            index = text.index(after: index)
            skip([" ", "\t"])
            var value = ""
            if index < text.endIndex, text[index] == "\"" {
                index = text.index(after: index)
                while index < text.endIndex, text[index] != "\"" {
                    if text[index] == "\\" { index = text.index(after: index) }
                    if index < text.endIndex {
                        value.append(text[index])
                        index = text.index(after: index)
                    }
                }
                if index < text.endIndex { index = text.index(after: index) }
            } else {
                while index < text.endIndex, text[index] != "," { value.append(text[index]); index = text.index(after: index) }
                value = value.trimmingCharacters(in: .whitespaces)
            }
            if !name.isEmpty { result[name] = value }
        }
        return result
    }

    /// Lowercase hex MD5 of the UTF-8 bytes (libcrypto, opened at the first digest login; when it cannot be opened,
    /// the empty string, which matches no client's response, so the login is refused).
    static func md5Hex(_ text: String) -> String {
        let crypto = newsstand_crypto_library()
        guard crypto.pointee.failure == nil else { return "" }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let bytes = Array(text.utf8)
        _ = crypto.pointee.digest(bytes, bytes.count, &digest, &length, crypto.pointee.md5(), nil)
        return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }
}

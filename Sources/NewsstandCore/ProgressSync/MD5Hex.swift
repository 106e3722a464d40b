import CCrypto
import Foundation

/// MD5 through libcrypto, as lowercase hex: what the kosync protocol uses for document ids (KOReader's
/// partial MD5, or the MD5 of a file name) and for the key it sends instead of a password. Not for security.
public final class MD5Hex {
    private let context: OpaquePointer

    public init() {
        context = EVP_MD_CTX_new()
        EVP_DigestInit_ex(context, EVP_md5(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(_ bytes: some ContiguousBytes) {
        bytes.withUnsafeBytes { buffer in
            _ = EVP_DigestUpdate(context, buffer.baseAddress, buffer.count)
        }
    }

    /// The digest as 32 lowercase hex digits; the object must not be used afterwards.
    public func finalize() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(Int(length) * 2)
        for byte in digest.prefix(Int(length)) {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The MD5 of `text`'s UTF-8 bytes.
    public static func of(_ text: String) -> String {
        let digest = MD5Hex()
        digest.update(Array(text.utf8))
        return digest.finalize()
    }
}

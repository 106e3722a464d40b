import CCrypto
import Foundation

/// MD5 through libcrypto, as lowercase hex: what the kosync protocol uses for document ids (KOReader's
/// partial MD5, or the MD5 of a file name) and for the key it sends instead of a password. Not for security.
/// libcrypto is opened by the first digest, not linked (see `CCrypto/shim.h`), as for ``SHA256Digest``.
public final class MD5Hex {
    private let crypto: UnsafePointer<newsstand_crypto>
    private let context: OpaquePointer

    /// Throws ``SHA256Digest/LibraryUnavailable`` when libcrypto cannot be opened (its words name the library).
    public init() throws {
        crypto = newsstand_crypto_library()
        if let failure = crypto.pointee.failure { throw SHA256Digest.LibraryUnavailable(detail: String(cString: failure)) }
        guard let context = crypto.pointee.md_ctx_new() else { throw SHA256Digest.ContextUnavailable() }
        self.context = context
        _ = crypto.pointee.digest_init_ex(context, crypto.pointee.md5(), nil)
    }

    deinit { crypto.pointee.md_ctx_free(context) }

    public func update(_ bytes: some ContiguousBytes) {
        bytes.withUnsafeBytes { buffer in
            _ = crypto.pointee.digest_update(context, buffer.baseAddress, buffer.count)
        }
    }

    /// The digest as 32 lowercase hex digits; the object must not be used afterwards.
    public func finalize() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = crypto.pointee.digest_final_ex(context, &digest, &length)
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
    public static func of(_ text: String) throws -> String {
        let digest = try MD5Hex()
        digest.update(Array(text.utf8))
        return digest.finalize()
    }
}

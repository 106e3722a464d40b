import CCrypto
import Foundation

/// Streaming SHA-256 through OpenSSL's libcrypto, for verifying downloaded content. libcrypto is opened by the first
/// digest, not linked (see `CCrypto/shim.h`).
public final class SHA256Digest {
    /// libcrypto could not be opened: the words say which library and why.
    public struct LibraryUnavailable: Error, CustomStringConvertible {
        public let detail: String
        public var description: String { "SHA-256 needs \(NEWSSTAND_CRYPTO_SONAME) (OpenSSL), which could not be loaded: \(detail)" }
    }

    /// libcrypto could not make a digest context (it is out of memory).
    public struct ContextUnavailable: Error, CustomStringConvertible {
        public var description: String { "SHA-256 could not start: libcrypto could not make a digest context" }
    }

    private let crypto: UnsafePointer<newsstand_crypto>
    private let context: OpaquePointer

    public init() throws {
        crypto = newsstand_crypto_library()
        if let failure = crypto.pointee.failure { throw LibraryUnavailable(detail: String(cString: failure)) }
        guard let context = crypto.pointee.md_ctx_new() else { throw ContextUnavailable() }
        self.context = context
        _ = crypto.pointee.digest_init_ex(context, crypto.pointee.sha256(), nil)
    }

    deinit { crypto.pointee.md_ctx_free(context) }

    public func update(_ data: Data) {
        data.withUnsafeBytes { buffer in
            _ = crypto.pointee.digest_update(context, buffer.baseAddress, buffer.count)
        }
    }

    /// The digest as lowercase hex; the object must not be used afterwards.
    public func finalizeHex() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = crypto.pointee.digest_final_ex(context, &digest, &length)
        return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }

    /// SHA-256 of a file, read in chunks so memory stays flat.
    public static func hexDigest(ofFile url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let digest = try SHA256Digest()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            digest.update(chunk)
        }
        return digest.finalizeHex()
    }
}

import Foundation
import XCTest
import CCrypto
@testable import NewsstandCore

final class SHA256DigestTests: XCTestCase {
    private func hex(_ data: Data) throws -> String {
        let digest = try SHA256Digest()
        digest.update(data)
        return digest.finalizeHex()
    }

    func testKnownVectors() throws {
        XCTAssertEqual(try hex(Data()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(try hex(Data("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(try hex(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    func testIncrementalUpdatesMatchOneShot() throws {
        let data = TestFiles.pseudoRandomData(count: 100_003)
        let digest = try SHA256Digest()
        var offset = 0
        for size in [1, 63, 64, 65, 4096, 30_000] where offset < data.count {
            let end = min(data.count, offset + size)
            digest.update(data[offset..<end])
            offset = end
        }
        digest.update(data[offset...])
        XCTAssertEqual(digest.finalizeHex(), try hex(data))
    }

    func testFileDigestMatchesTheSampleCatalog() throws {
        let catalogURL = TestFiles.sampleLibrary.appendingPathComponent("catalog.plist")
        let catalog = try CatalogParser.parse(try Data(contentsOf: catalogURL), catalogURL: catalogURL)
        XCTAssertEqual(catalog.entries.count, 6)
        for entry in catalog.entries {
            XCTAssertEqual(try SHA256Digest.hexDigest(ofFile: entry.contentURLs[0]), entry.expectedSHA256, entry.name)
        }
    }

    func testFileDigestOfALargeFileMatchesInMemoryDigest() throws {
        let folder = try TestFiles.scratchFolder(for: self)
        let file = folder.appendingPathComponent("big.bin")
        let data = TestFiles.pseudoRandomData(count: 3 << 20 | 17)
        try data.write(to: file)
        XCTAssertEqual(try SHA256Digest.hexDigest(ofFile: file), try hex(data))
        XCTAssertThrowsError(try SHA256Digest.hexDigest(ofFile: folder.appendingPathComponent("missing")))
    }

    /// libcrypto is opened at the first digest, not linked: the system's opens, and a missing one gives the loader's
    /// words naming it instead of a crash.
    func testLibcryptoOpensAtRunTimeAndAMissingOneIsNamed() throws {
        XCTAssertNil(newsstand_crypto_library().pointee.failure.map { String(cString: $0) })
        var table = newsstand_crypto()
        var missing = newsstand_crypto()
        // dlerror's words live in a buffer the next dl call frees: copied at once.
        let failure = String(cString: try XCTUnwrap(newsstand_crypto_open("libnewsstand-no-such-crypto.so.3", &missing)))
        XCTAssertTrue(failure.contains("libnewsstand-no-such-crypto.so.3"), failure)
        XCTAssertNil(newsstand_crypto_open(NEWSSTAND_CRYPTO_SONAME, &table))
        XCTAssertNotNil(table.md_ctx_new)
        let error = SHA256Digest.LibraryUnavailable(detail: failure)
        XCTAssertTrue(error.description.hasPrefix("SHA-256 needs libcrypto.so.3 (OpenSSL), which could not be loaded: "), error.description)
    }
}

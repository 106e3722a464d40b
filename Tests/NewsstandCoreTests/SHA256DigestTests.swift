import Foundation
import XCTest
@testable import NewsstandCore

final class SHA256DigestTests: XCTestCase {
    private func hex(_ data: Data) -> String {
        let digest = SHA256Digest()
        digest.update(data)
        return digest.finalizeHex()
    }

    func testKnownVectors() {
        XCTAssertEqual(hex(Data()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(hex(Data("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(hex(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    func testIncrementalUpdatesMatchOneShot() {
        let data = TestFiles.pseudoRandomData(count: 100_003)
        let digest = SHA256Digest()
        var offset = 0
        for size in [1, 63, 64, 65, 4096, 30_000] where offset < data.count {
            let end = min(data.count, offset + size)
            digest.update(data[offset..<end])
            offset = end
        }
        digest.update(data[offset...])
        XCTAssertEqual(digest.finalizeHex(), hex(data))
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
        XCTAssertEqual(try SHA256Digest.hexDigest(ofFile: file), hex(data))
        XCTAssertThrowsError(try SHA256Digest.hexDigest(ofFile: folder.appendingPathComponent("missing")))
    }
}

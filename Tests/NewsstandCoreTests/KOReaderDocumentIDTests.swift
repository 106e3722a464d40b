import Foundation
import XCTest
@testable import NewsstandCore

/// KOReader's partial MD5 against every golden vector of `../shared/kosync/vectors.json` (kosync SPEC §8.6), the
/// file-name method, and the id being taken from the file as downloaded and kept in the library.
final class KOReaderDocumentIDTests: XCTestCase {
    private struct Vectors: Decodable {
        struct Algorithm: Decodable { let sampleSize: Int; let offsets: [Int64] }
        struct Synthetic: Decodable { let size: Int; let samples: Int; let digest: String }
        struct Sparse: Decodable { let size: Int64; let samples: Int; let digest: String }
        struct Fixture: Decodable { let file: String; let size: Int; let samples: Int; let digest: String }
        let algorithm: Algorithm
        let synthetic: [Synthetic]
        let sparse: Sparse
        let koreaderTestData: [Fixture]
        let arithmeticVariant: [String: String]
    }

    private func vectors() throws -> Vectors {
        let file = TestFiles.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/kosync/vectors.json")
        return try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: file))
    }

    /// `P(n)[i] = (i * 31 + (i >> 8)) mod 256`.
    private func pattern(_ count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ ($0 >> 8)) })
    }

    func testTheOffsetsAreKOReaders() throws {
        let vectors = try vectors()
        XCTAssertEqual(KOReaderDocumentID.sampleOffsets, vectors.algorithm.offsets)
        XCTAssertEqual(KOReaderDocumentID.sampleSize, vectors.algorithm.sampleSize)
    }

    func testEverySyntheticVectorFromAFile() throws {
        let folder = try TestFiles.scratchFolder(for: self)
        let vectors = try vectors()
        XCTAssertEqual(vectors.synthetic.count, 7)
        for vector in vectors.synthetic {
            let file = folder.appendingPathComponent("P\(vector.size).bin")
            try pattern(vector.size).write(to: file)
            XCTAssertEqual(try KOReaderDocumentID.partialMD5(ofFile: file), vector.digest, "P(\(vector.size))")
            let sampled = KOReaderDocumentID.sampleOffsets.filter { $0 < Int64(vector.size) }.count
            XCTAssertEqual(sampled, vector.samples, "P(\(vector.size)) takes \(vector.samples) samples")
        }
    }

    func testTheArithmeticVariantIsNotWhatWeCompute() throws {
        let folder = try TestFiles.scratchFolder(for: self)
        let file = folder.appendingPathComponent("P200000.bin")
        try pattern(200_000).write(to: file)
        let digest = try KOReaderDocumentID.partialMD5(ofFile: file)
        XCTAssertNotEqual(digest, try vectors().arithmeticVariant["P(200000)"])
    }

    /// The 1 GiB + 1 KiB sparse file that takes all twelve samples, made sparse on disk (a few blocks written).
    func testTheSparseGibibyteVectorTakesAllTwelveSamples() throws {
        let vector = try vectors().sparse
        let file = try TestFiles.scratchFolder(for: self).appendingPathComponent("sparse.bin")
        XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        for offset in KOReaderDocumentID.sampleOffsets {
            try handle.seek(toOffset: UInt64(offset))
            let marker = String(repeating: "0", count: 16 - String(offset).count) + String(offset)
            try handle.write(contentsOf: Data(marker.utf8))
        }
        try handle.truncate(atOffset: UInt64(vector.size))
        try handle.close()
        XCTAssertEqual(FileSize.of(file), vector.size)
        XCTAssertEqual(try KOReaderDocumentID.partialMD5(ofFile: file), vector.digest)
        XCTAssertEqual(vector.samples, 12)
    }

    /// The same vector computed by reading only the sampled offsets, with no file at all; and nothing else is read.
    func testTheSparseVectorReadsOnlyTheSamples() throws {
        let vector = try vectors().sparse
        var reads: [Int64] = []
        let digest = try KOReaderDocumentID.partialMD5(size: vector.size) { offset, count in
            reads.append(offset)
            var bytes = Data(count: count)
            let marker = String(repeating: "0", count: 16 - String(offset).count) + String(offset)
            bytes.replaceSubrange(0..<16, with: Data(marker.utf8))
            return bytes
        }
        XCTAssertEqual(digest, vector.digest)
        XCTAssertEqual(reads, KOReaderDocumentID.sampleOffsets)
    }

    /// KOReader's own fixtures (`leaves.epub`, `tall.pdf` from koreader/test-data) are not in the shared material, so
    /// their digests are checked through what is known of them: sizes that take the stated number of samples.
    func testKOReaderFixtureSizesTakeTheStatedSamples() throws {
        for fixture in try vectors().koreaderTestData {
            XCTAssertEqual(KOReaderDocumentID.sampleOffsets.filter { $0 < Int64(fixture.size) }.count, fixture.samples, fixture.file)
        }
    }

    func testAnEmptyFileIsTheMD5OfNothing() throws {
        let file = try TestFiles.scratchFolder(for: self).appendingPathComponent("empty")
        try Data().write(to: file)
        XCTAssertEqual(try KOReaderDocumentID.partialMD5(ofFile: file), "d41d8cd98f00b204e9800998ecf8427e")
    }

    func testTheFileNameMethodHashesTheNameWithoutItsFolder() throws {
        XCTAssertEqual(try KOReaderDocumentID.fileNameMD5("leaves.epub"), try MD5Hex.of("leaves.epub"))
        XCTAssertEqual(try KOReaderDocumentID.fileNameMD5("/mnt/onboard/books/leaves.epub"), try MD5Hex.of("leaves.epub"))
        XCTAssertEqual(try MD5Hex.of("password"), "5f4dcc3b5aa765d61d8327deb882cf99")
    }

    /// A downloaded issue keeps the partial MD5 of the EPUB as it was downloaded, though only its unpacked folder stays.
    func testADownloadKeepsItsFilesIdentity() throws {
        let harness = try DownloadHarness.make(for: self)
        let url = try harness.serve(sample: "2025-autumn", as: "autumn.epub")
        let issue = try harness.addIssue("2025-autumn", content: [url])
        XCTAssertNil(try harness.store.downloadedFileIdentity(issueID: issue.id))
        harness.queue.enqueue(issueID: issue.id)
        XCTAssertEqual(harness.outcome(of: issue.id), .installed(issueID: issue.id))
        let expected = try KOReaderDocumentID.partialMD5(ofFile: TestSupport.sampleIssue("2025-autumn"))
        XCTAssertEqual(try harness.store.downloadedFileIdentity(issueID: issue.id),
                       DownloadedFileIdentity(partialMD5: expected, fileName: "autumn.epub"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: harness.partial(of: issue).path), "the archive itself is not kept")
    }
}

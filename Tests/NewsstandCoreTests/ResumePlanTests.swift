import Foundation
import XCTest
@testable import NewsstandCore

/// The resume decision as tables: every combination of what is on disk (no partial, part of the asset, all
/// of it, more than its stated length, a partial of another URL, one of unknown length), how the stored and
/// the server's validators compare, and what the server answers (200, 206 that fits or not, 416).
final class ResumePlanTests: XCTestCase {
    private static let url = "http://127.0.0.1/issue.epub"
    private static let length: Int64 = 1000

    /// What is on disk before the request.
    private enum Partial: String, CaseIterable {
        case none, part, complete, tooLong, otherURL, unknownLength

        func disk(validator: String?) -> (onDisk: Int64, stored: PartialMetadata?) {
            let url = ResumePlanTests.url, length = ResumePlanTests.length
            switch self {
            case .none: return (0, nil)
            case .part: return (400, PartialMetadata(url: url, validator: validator, length: length))
            case .complete: return (length, PartialMetadata(url: url, validator: validator, length: length))
            case .tooLong: return (1200, PartialMetadata(url: url, validator: validator, length: length))
            case .otherURL: return (400, PartialMetadata(url: "http://127.0.0.1/other.epub", validator: validator, length: length))
            case .unknownLength: return (400, PartialMetadata(url: url, validator: validator, length: nil))
            }
        }
    }

    /// How the stored validator and the server's compare.
    private enum Validators: String, CaseIterable {
        case same, changed, serverSendsNone, noneStored, lastModifiedSame, lastModifiedChanged

        var stored: String? {
            switch self {
            case .same, .changed, .serverSendsNone: "\"v1\""
            case .noneStored: nil
            case .lastModifiedSame, .lastModifiedChanged: "Wed, 21 Oct 2015 07:28:00 GMT"
            }
        }

        /// The server's ETag and Last-Modified headers (a weak ETag is no validator: Last-Modified counts).
        var headers: [String: String] {
            switch self {
            case .same, .noneStored: ["etag": "\"v1\""]
            case .changed: ["etag": "\"v2\""]
            case .serverSendsNone: [:]
            case .lastModifiedSame: ["etag": "W/\"weak\"", "last-modified": "Wed, 21 Oct 2015 07:28:00 GMT"]
            case .lastModifiedChanged: ["etag": "W/\"weak\"", "last-modified": "Thu, 22 Oct 2015 07:28:00 GMT"]
            }
        }
    }

    /// What the server answers, relative to the offset the request asked from (O).
    private enum ServerAnswer: String, CaseIterable {
        /// 200 with the whole asset.
        case whole
        /// 206 `bytes O-999/1000`.
        case rangeFits
        /// 206 `bytes O+10-999/1000`.
        case rangeElsewhere
        /// 206 `bytes O-1099/1100`.
        case rangeOtherTotal
        /// 206 `bytes O-999/*`.
        case rangeUnknownTotal
        /// 416 `bytes */1000`.
        case refusedWithLength
        /// 416 `bytes */400` (what a partial of 400 bytes holds).
        case refusedWithPartialLength
        /// 416 without Content-Range.
        case refusedBare

        func head(offset: Int64, validators: Validators) -> HTTPResponseHead {
            var headers = validators.headers
            headers["content-type"] = "application/epub+zip"
            let status: Int
            switch self {
            case .whole:
                status = 200
                headers["content-length"] = "1000"
            case .rangeFits: status = 206; headers["content-range"] = "bytes \(offset)-999/1000"
            case .rangeElsewhere: status = 206; headers["content-range"] = "bytes \(offset + 10)-999/1000"
            case .rangeOtherTotal: status = 206; headers["content-range"] = "bytes \(offset)-1099/1100"
            case .rangeUnknownTotal: status = 206; headers["content-range"] = "bytes \(offset)-999/*"
            case .refusedWithLength: status = 416; headers["content-range"] = "bytes */1000"
            case .refusedWithPartialLength: status = 416; headers["content-range"] = "bytes */400"
            case .refusedBare: status = 416
            }
            return HTTPResponseHead(status: status, headers: headers, url: URL(string: ResumePlanTests.url)!)
        }
    }

    /// One letter per server answer, in `ServerAnswer.allCases` order:
    /// F accept from zero, A append to the partial, S start over, C complete, L complete (length learned).
    private static let expected: [Partial: [Validators: String]] = [
        //            200 fits elsewhere otherTotal */ 416/1000 416/400 416
        .none: [.same: "FSSSSSSS", .changed: "FSSSSSSS", .serverSendsNone: "FSSSSSSS", .noneStored: "FSSSSSSS",
                .lastModifiedSame: "FSSSSSSS", .lastModifiedChanged: "FSSSSSSS"],
        .part: [.same: "FASSASSS", .changed: "FSSSSSSS", .serverSendsNone: "FASSASSS", .noneStored: "FASSASSS",
                .lastModifiedSame: "FASSASSS", .lastModifiedChanged: "FSSSSSSS"],
        .complete: [.same: "FSSSSCSC", .changed: "FSSSSSSS", .serverSendsNone: "FSSSSCSC", .noneStored: "FSSSSCSC",
                    .lastModifiedSame: "FSSSSCSC", .lastModifiedChanged: "FSSSSSSS"],
        .tooLong: [.same: "FSSSSSSS", .changed: "FSSSSSSS", .serverSendsNone: "FSSSSSSS", .noneStored: "FSSSSSSS",
                   .lastModifiedSame: "FSSSSSSS", .lastModifiedChanged: "FSSSSSSS"],
        .otherURL: [.same: "FSSSSSSS", .changed: "FSSSSSSS", .serverSendsNone: "FSSSSSSS", .noneStored: "FSSSSSSS",
                    .lastModifiedSame: "FSSSSSSS", .lastModifiedChanged: "FSSSSSSS"],
        .unknownLength: [.same: "FASAASLS", .changed: "FSSSSSSS", .serverSendsNone: "FASAASLS", .noneStored: "FASAASLS",
                         .lastModifiedSame: "FASAASLS", .lastModifiedChanged: "FSSSSSSS"],
    ]

    /// The offset each partial continues from (0: it starts over).
    private static let expectedOffset: [Partial: Int64] = [
        .none: 0, .part: 400, .complete: 1000, .tooLong: 0, .otherURL: 0, .unknownLength: 400,
    ]

    func testEveryPartialValidatorAndAnswer() {
        var checked = 0
        for partial in Partial.allCases {
            for validators in Validators.allCases {
                let (onDisk, stored) = partial.disk(validator: validators.stored)
                let plan = ResumePlan(url: Self.url, onDisk: onDisk, stored: stored, bytesPerSecond: nil)
                let row = "\(partial) / \(validators)"
                XCTAssertEqual(plan.offset, Self.expectedOffset[partial], row)
                XCTAssertEqual(plan.stored, plan.offset > 0 ? stored : nil, row)
                let codes = Array(Self.expected[partial]![validators]!)
                XCTAssertEqual(codes.count, ServerAnswer.allCases.count, row)
                for (answer, code) in zip(ServerAnswer.allCases, codes) {
                    let head = answer.head(offset: plan.offset, validators: validators)
                    XCTAssertEqual(Self.code(plan, head), code, "\(row) / \(answer)")
                    checked += 1
                }
            }
        }
        XCTAssertEqual(checked, 6 * 6 * 8)
    }

    private static func code(_ plan: ResumePlan, _ head: HTTPResponseHead) -> Character {
        if head.status == 416 {
            switch plan.rangeNotSatisfiable(head) {
            case .complete(_, let learned): return learned ? "L" : "C"
            case .startOver: return "S"
            }
        }
        switch plan.answer(head) {
        case .accept(_, let append, _, _): return append ? "A" : "F"
        case .startOver: return "S"
        case .notAnIssue: return "N"
        case .unusable: return "U"
        }
    }

    func testWhatAnAcceptedAnswerStores() {
        let stored = PartialMetadata(url: Self.url, validator: "\"v1\"", length: nil)
        let plan = ResumePlan(url: Self.url, onDisk: 400, stored: stored, bytesPerSecond: nil)
        let url = URL(string: Self.url)!
        // A range of unknown length learns the total from Content-Range; what remains is counted from the offset.
        let learned = HTTPResponseHead(status: 206, headers: ["etag": "\"v1\"", "content-range": "bytes 400-1099/1100"], url: url)
        XCTAssertEqual(plan.answer(learned), .accept(PartialMetadata(url: Self.url, validator: "\"v1\"", length: 1100),
                                                     append: true, remaining: 700, sliceLast: nil))
        // A 200 starts over under the server's validator and length.
        let whole = HTTPResponseHead(status: 200, headers: ["etag": "\"v9\"", "content-length": "1000"], url: url)
        XCTAssertEqual(plan.answer(whole), .accept(PartialMetadata(url: Self.url, validator: "\"v9\"", length: 1000),
                                                   append: false, remaining: 1000, sliceLast: nil))
        // A 416 naming the partial's size completes it with that length.
        let refused = HTTPResponseHead(status: 416, headers: ["content-range": "bytes */400"], url: url)
        XCTAssertEqual(plan.rangeNotSatisfiable(refused),
                       .complete(PartialMetadata(url: Self.url, validator: "\"v1\"", length: 400), learnedLength: true))
    }

    func testAnswersThatAreNotAnIssue() {
        let plan = ResumePlan(url: Self.url, onDisk: 0, stored: nil, bytesPerSecond: nil)
        let url = URL(string: Self.url)!
        let page = HTTPResponseHead(status: 200, headers: ["content-type": "text/html; charset=utf-8"], url: url)
        XCTAssertEqual(plan.answer(page), .notAnIssue("the server sent a web page (text/html; charset=utf-8) instead of the issue"))
        XCTAssertEqual(plan.answer(HTTPResponseHead(status: 304, url: url)), .unusable(status: 304))
        let part = ResumePlan(url: Self.url, onDisk: 400, stored: PartialMetadata(url: Self.url, validator: nil, length: 1000),
                              bytesPerSecond: nil)
        let pageRange = HTTPResponseHead(status: 206, headers: ["content-type": "text/plain", "content-range": "bytes 400-999/1000"], url: url)
        XCTAssertEqual(part.answer(pageRange), .notAnIssue("the server sent a web page (text/plain) instead of the issue"))
    }

    func testRequestHeaders() {
        let rows: [(Partial, Validators, Int?, [String: String])] = [
            (.none, .same, nil, ["Accept-Encoding": "identity"]),
            (.part, .same, nil, ["Accept-Encoding": "identity", "Range": "bytes=400-", "If-Range": "\"v1\""]),
            (.part, .lastModifiedSame, nil, ["Accept-Encoding": "identity", "Range": "bytes=400-",
                                             "If-Range": "Wed, 21 Oct 2015 07:28:00 GMT"]),
            (.part, .noneStored, nil, ["Accept-Encoding": "identity", "Range": "bytes=400-"]),
            (.complete, .same, nil, ["Accept-Encoding": "identity", "Range": "bytes=1000-", "If-Range": "\"v1\""]),
            (.tooLong, .same, nil, ["Accept-Encoding": "identity"]),
            (.otherURL, .same, nil, ["Accept-Encoding": "identity"]),
            (.unknownLength, .same, nil, ["Accept-Encoding": "identity", "Range": "bytes=400-", "If-Range": "\"v1\""]),
            // Under a rate limit every request asks for a slice of about a second's worth (at least 64 KiB).
            (.none, .same, 1000, ["Accept-Encoding": "identity", "Range": "bytes=0-65535"]),
            (.part, .same, 100_000, ["Accept-Encoding": "identity", "Range": "bytes=400-100399", "If-Range": "\"v1\""]),
            (.tooLong, .same, 8 << 20, ["Accept-Encoding": "identity", "Range": "bytes=0-4194303"]),
        ]
        for (partial, validators, limit, headers) in rows {
            let (onDisk, stored) = partial.disk(validator: validators.stored)
            let plan = ResumePlan(url: Self.url, onDisk: onDisk, stored: stored, bytesPerSecond: limit)
            XCTAssertEqual(plan.headers, headers, "\(partial) / \(validators) / \(limit.map(String.init) ?? "no limit")")
            XCTAssertEqual(plan.asksForSlice, limit != nil)
        }
    }

    func testSlices() {
        let url = URL(string: Self.url)!
        let first = ResumePlan(url: Self.url, onDisk: 0, stored: nil, bytesPerSecond: 1000)
        XCTAssertEqual(first.sliceLast, 65535)
        // The first slice is a fresh start told the total by Content-Range.
        let slice = HTTPResponseHead(status: 206, headers: ["etag": "\"v1\"", "content-range": "bytes 0-65535/200000"], url: url)
        XCTAssertEqual(first.answer(slice), .accept(PartialMetadata(url: Self.url, validator: "\"v1\"", length: 200_000),
                                                    append: false, remaining: 200_000, sliceLast: 65535))
        // A slice of unknown total that ends before what was asked is the last: its end is the length.
        let short = HTTPResponseHead(status: 206, headers: ["content-range": "bytes 0-499/*"], url: url)
        XCTAssertEqual(first.answer(short), .accept(PartialMetadata(url: Self.url, validator: nil, length: 500),
                                                    append: false, remaining: 500, sliceLast: 499))
        let full = HTTPResponseHead(status: 206, headers: ["content-range": "bytes 0-65535/*"], url: url)
        XCTAssertEqual(first.answer(full), .accept(PartialMetadata(url: Self.url, validator: nil, length: nil),
                                                   append: false, remaining: nil, sliceLast: 65535))
        let elsewhere = HTTPResponseHead(status: 206, headers: ["content-range": "bytes 10-65535/200000"], url: url)
        XCTAssertEqual(first.answer(elsewhere), .startOver)
        // A server that ignores the range sends the whole file: a fresh start, not a slice.
        let whole = HTTPResponseHead(status: 200, headers: ["content-length": "200000"], url: url)
        XCTAssertEqual(first.answer(whole), .accept(PartialMetadata(url: Self.url, validator: nil, length: 200_000),
                                                    append: false, remaining: 200_000, sliceLast: nil))
        // A later slice appends and keeps the length.
        let stored = PartialMetadata(url: Self.url, validator: "\"v1\"", length: 200_000)
        let next = ResumePlan(url: Self.url, onDisk: 65536, stored: stored, bytesPerSecond: 1000)
        let second = HTTPResponseHead(status: 206, headers: ["etag": "\"v1\"", "content-range": "bytes 65536-131071/200000"], url: url)
        XCTAssertEqual(next.answer(second), .accept(stored, append: true, remaining: 200_000 - 65536, sliceLast: 131071))
    }

    func testAfterTheBody() {
        let rows: [(onDisk: Int64, sliceLast: Int64?, length: Int64?, expected: ResumePlan.AfterBody)] = [
            (1000, nil, 1000, .complete),
            (600, nil, 1000, .stoppedEarly(onDisk: 600, length: 1000)),
            (600, nil, nil, .complete),
            (65536, 65535, 200_000, .nextSlice),
            (65536, 65535, nil, .nextSlice),
            (65536, 65535, 65536, .complete),
            (30000, 65535, 200_000, .stoppedEarly(onDisk: 30000, length: 200_000)),
            (30000, 65535, nil, .complete),
        ]
        for row in rows {
            XCTAssertEqual(ResumePlan.afterBody(onDisk: row.onDisk, sliceLast: row.sliceLast, length: row.length), row.expected,
                           "\(row)")
        }
    }

    func testFileCopies() {
        let source = PartialMetadata(url: "file:///tmp/issue.epub", validator: "1000-1700000000.0", length: 1000)
        var touched = source
        touched.validator = "1000-1700000001.0"
        let rows: [(onDisk: Int64, stored: PartialMetadata?, expected: Int64)] = [
            (0, nil, 0), (400, source, 400), (1000, source, 1000), (1200, source, 0), (400, touched, 0), (400, nil, 0),
        ]
        for row in rows {
            XCTAssertEqual(ResumePlan.fileOffset(onDisk: row.onDisk, stored: row.stored, source: source), row.expected, "\(row)")
        }
    }

    func testValidatorChoice() {
        XCTAssertEqual(ResumePlan.validator(etag: "\"a\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT"), "\"a\"")
        XCTAssertEqual(ResumePlan.validator(etag: "W/\"a\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT"),
                       "Wed, 21 Oct 2015 07:28:00 GMT")
        XCTAssertNil(ResumePlan.validator(etag: "W/\"a\"", lastModified: nil))
        XCTAssertNil(ResumePlan.validator(etag: "", lastModified: ""))
    }
}

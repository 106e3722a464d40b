import Foundation
import NewsstandImaging
import Synchronization
import XCTest
@testable import NewsstandPictures

/// The encoding queue is asked from several threads at once (the backend, the front end preparing pictures).
final class PictureEncodingQueueConcurrencyTests: XCTestCase {
    private static func bytes(of part: PictureEncodingQueue.Part) -> [UInt8] { Array("\(part.id):\(part.row),\(part.column)".utf8) }

    /// Eight threads ask for the same 300 parts at once (half of them from the first, half from the last, so they meet
    /// on parts still being encoded): each part is encoded exactly once and reported ready once, and afterwards every
    /// one is ready with its own bytes.
    func testPartsAskedForFromManyThreadsAreEncodedOnceEach() {
        let encoded = Mutex<[PictureEncodingQueue.Part: Int]>([:])
        let readied = Mutex<[PictureEncodingQueue.Part: Int]>([:])
        let queue = PictureEncodingQueue(capacity: 1_000, encode: { _, part in
            encoded.withLock { $0[part, default: 0] += 1 }
            Thread.sleep(forTimeInterval: 0.000_2)
            return Self.bytes(of: part)
        }, onReady: { part in readied.withLock { $0[part, default: 0] += 1 } })
        let picture = PictureOutputTests.picture(id: 7, columns: 20, rows: 15)
        let parts = (0..<15).flatMap { row in (0..<20).map { PictureEncodingQueue.Part(id: 7, row: row, column: $0, rows: 1, columns: 1) } }
        let wrong = Mutex<[String]>([])
        let done = DispatchGroup()
        for thread in 0..<8 {
            done.enter()
            Thread {
                for index in parts.indices {
                    let part = parts[thread % 2 == 0 ? index : parts.count - 1 - index]
                    if let ready = queue.bytes(part, of: picture), ready != Self.bytes(of: part) {
                        wrong.withLock { $0.append("\(part)") }
                    }
                }
                done.leave()
            }.start()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        queue.waitUntilIdle()
        XCTAssertEqual(wrong.withLock { $0 }, [], "no part answered with another's bytes")
        XCTAssertEqual(encoded.withLock { $0 }, Dictionary(uniqueKeysWithValues: parts.map { ($0, 1) }), "each part encoded once")
        XCTAssertEqual(readied.withLock { $0 }, Dictionary(uniqueKeysWithValues: parts.map { ($0, 1) }), "each part reported ready once")
        XCTAssertTrue(parts.allSatisfy { queue.bytes($0, of: picture) == Self.bytes(of: $0) })
    }
}

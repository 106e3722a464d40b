import XCTest
@testable import NewsstandCore

/// `PlainStack` (the feed reader's open elements) pushes and pops as an `Array` does, through growth past its
/// first capacity and back to empty.
final class PlainStackTests: XCTestCase {
    private struct Frame: Equatable {
        var depth: Int
        var flag: Bool
    }

    func testPushAndPopAnswerAsAnArrayDoes() {
        let stack = PlainStack<Frame>(capacity: 4)
        var oracle: [Frame] = []
        XCTAssertTrue(stack.isEmpty)
        XCTAssertNil(stack.last)
        XCTAssertNil(stack.popLast())
        var random = SeededRandom(seed: 11)
        for step in 0..<5_000 {
            // Mostly pushes at first (the stack grows well past 4), then mostly pops.
            if Int.random(in: 0..<10, using: &random) < (step < 2_500 ? 7 : 3) {
                let frame = Frame(depth: step, flag: step % 3 == 0)
                stack.append(frame)
                oracle.append(frame)
            } else {
                XCTAssertEqual(stack.popLast(), oracle.popLast())
            }
            XCTAssertEqual(stack.count, oracle.count)
            XCTAssertEqual(stack.last, oracle.last)
        }
        XCTAssertGreaterThan(oracle.count, 0)
        while let frame = oracle.popLast() { XCTAssertEqual(stack.popLast(), frame) }
        XCTAssertTrue(stack.isEmpty)
        XCTAssertNil(stack.popLast())
    }
}

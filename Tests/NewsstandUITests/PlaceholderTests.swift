import XCTest
final class NewsstandUITestsPlaceholder: XCTestCase { func testBuilds() { XCTAssertTrue(true) } }

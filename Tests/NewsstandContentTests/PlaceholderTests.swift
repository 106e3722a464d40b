import XCTest
final class NewsstandContentTestsPlaceholder: XCTestCase { func testBuilds() { XCTAssertTrue(true) } }

import XCTest
final class NewsstandCoreTestsPlaceholder: XCTestCase { func testBuilds() { XCTAssertTrue(true) } }

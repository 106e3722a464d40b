import XCTest
final class NewsstandImagingTestsPlaceholder: XCTestCase { func testBuilds() { XCTAssertTrue(true) } }

import XCTest
final class LocalHTTPServerTestsPlaceholder: XCTestCase { func testBuilds() { XCTAssertTrue(true) } }

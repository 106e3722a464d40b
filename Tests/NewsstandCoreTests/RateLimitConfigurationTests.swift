import Foundation
import XCTest
@testable import NewsstandCore

final class RateLimitConfigurationTests: XCTestCase {
    func testRateLimitIsOffByDefaultAndTakesASizePerSecond() {
        XCTAssertNil(Configuration.parse("").rateLimit)
        XCTAssertEqual(Configuration.parse("rate-limit 1M").rateLimit, 1 << 20)
        XCTAssertEqual(Configuration.parse("rate-limit 256K").rateLimit, 256 << 10)
        XCTAssertEqual(Configuration.parse("rate-limit 1.5M").rateLimit, 1_572_864)
        XCTAssertNil(Configuration.parse("rate-limit 1M\nrate-limit off").rateLimit)
        let bad = Configuration.parse("rate-limit fast\nrate-limit 10", source: "config")
        XCTAssertNil(bad.rateLimit)
        XCTAssertEqual(bad.warnings, ["config, line 1: rate-limit takes bytes per second such as 512K or 2M, or off",
                                      "config, line 2: rate-limit takes bytes per second such as 512K or 2M, or off"])
    }
}

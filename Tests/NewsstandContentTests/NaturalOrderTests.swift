import XCTest
import NewsstandContent

/// Names in the order people expect: numbers by value, case ignored, paths folder by folder.
final class NaturalOrderTests: XCTestCase {
    func testDigitRunsCompareByValueNotByCharacter() {
        let names = ["page10.png", "page2.png", "page1.png", "page02b.png", "page100.png", "page9.png"]
        XCTAssertEqual(names.sorted(by: NaturalOrder.areInIncreasingOrder),
                       ["page1.png", "page2.png", "page02b.png", "page9.png", "page10.png", "page100.png"])
        XCTAssertTrue(NaturalOrder.areInIncreasingOrder("v1 p99999999999999999999999", "v1 p100000000000000000000000"), "no overflow on long numbers")
        XCTAssertTrue(NaturalOrder.areInIncreasingOrder("a", "a1"))
    }

    func testCaseIsIgnoredAndTiesHaveOneStableOrder() {
        XCTAssertEqual(["Page3.jpg", "page2.jpg", "PAGE1.jpg"].sorted(by: NaturalOrder.areInIncreasingOrder), ["PAGE1.jpg", "page2.jpg", "Page3.jpg"])
        XCTAssertEqual(NaturalOrder.compare("Cover.jpg", "cover.jpg"), 0)
        XCTAssertNotEqual(NaturalOrder.areInIncreasingOrder("Cover.jpg", "cover.jpg"), NaturalOrder.areInIncreasingOrder("cover.jpg", "Cover.jpg"),
                          "names equal but for case still have one order")
        XCTAssertEqual(NaturalOrder.compare("p007", "p7"), 0)
        XCTAssertTrue(NaturalOrder.areInIncreasingOrder("p007", "p7") != NaturalOrder.areInIncreasingOrder("p7", "p007"))
    }

    func testPathsAreOrderedFolderByFolder() {
        let paths = ["chapter 10/01.png", "chapter 2/10.png", "chapter 2/9.png", "Chapter 1/b.png", "chapter 1/A.png", "cover.png"]
        XCTAssertEqual(paths.sorted(by: NaturalOrder.pathsInIncreasingOrder),
                       ["chapter 1/A.png", "Chapter 1/b.png", "chapter 2/9.png", "chapter 2/10.png", "chapter 10/01.png", "cover.png"])
        XCTAssertTrue(NaturalOrder.pathsInIncreasingOrder("a", "a/b.png"), "a folder before what it holds")
        XCTAssertEqual(NaturalOrder.sortedPaths(paths), paths.sorted(by: NaturalOrder.pathsInIncreasingOrder))
        XCTAssertEqual(NaturalOrder.sortedPaths(["B/1.png", "b/1.png"]), ["B/1.png", "b/1.png"], "ties by plain order")
    }
}

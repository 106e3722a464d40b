import XCTest
import NewsstandCore
import NewsstandImaging
@testable import NewsstandUI

/// Covers and pages shown as terminal pictures: requested at the cells' pixel size, drawn as placeholder cells.
final class TerminalPictureScreenTests: XCTestCase {
    let issues = (1...3).map { Fixtures.issue(Int64($0), "Issue \($0)") }
    let theme = Theme.fallback

    func testCoverRequestsAskForPicturesOnlyWithAProtocol() {
        var state = Fixtures.state(width: 90, height: 30, issues: issues)
        XCTAssertNil(state.coverRequest(issueID: 1, columns: 4, rows: 3).cellPixels, "text art by default")
        state.pictureProtocol = .sixel
        state.cellPixelSize = CellPixelSize(width: 9, height: 18)
        XCTAssertEqual(state.coverRequest(issueID: 1, columns: 4, rows: 3).cellPixels, CellPixelSize(width: 9, height: 18))
    }

    func testTheIssuePageShowsItsCoverAsAPicture() throws {
        var state = Fixtures.state(width: 90, height: 30, issues: issues)
        state.pictureProtocol = .kitty
        state.cellPixelSize = CellPixelSize(width: 4, height: 8)
        let effects = AppUpdate.update(&state, .keyPressed(.character("i")))
        guard case .requestCovers(let requests)? = effects.first, let request = requests.first else { return XCTFail("\(effects)") }
        XCTAssertEqual(request.cellPixels, CellPixelSize(width: 4, height: 8))
        let cover = RasterImage(width: 30, height: 40, red: 200, green: 30, blue: 30, alpha: 255)
        let art = TextArt.render(cover, options: AsciiArtOptions(columns: request.columns, rows: request.rows), cellPixels: request.cellPixels)
        let picture = try XCTUnwrap(art.picture)
        XCTAssertEqual(picture.image.width, request.columns * 4, "made at the size shown")
        XCTAssertEqual(picture.image.height, request.rows * 8)
        state.covers[request] = art
        let frame = AppView.render(state, theme: theme)
        XCTAssertEqual(frame.pictures[picture.id], picture)
        let cells = (0..<frame.height).flatMap { y in (0..<frame.width).compactMap { PictureCell(frame[$0, y]) } }
        XCTAssertEqual(cells.count, request.columns * request.rows, "every cell of the cover is a placeholder")
        XCTAssertTrue(cells.allSatisfy { $0.id == picture.id })

        _ = AppUpdate.update(&state, .keyPressed(.escape))
        XCTAssertTrue(AppView.render(state, theme: theme).pictures[picture.id] == nil, "the shelf does not show the large cover")
    }

    func testPicturesAreFittedAndCentredOnTransparentPixels() {
        let wide = RasterImage(width: 40, height: 10, red: 0, green: 0, blue: 255, alpha: 255)
        let picture = TerminalPicture(fitting: wide, columns: 4, rows: 4, cell: CellPixelSize(width: 5, height: 10))
        XCTAssertEqual(picture.image.width, 20)
        XCTAssertEqual(picture.image.height, 40)
        XCTAssertEqual(picture.image.pixel(x: 10, y: 0).alpha, 0, "above the picture: transparent")
        XCTAssertEqual(picture.image.pixel(x: 10, y: 20).blue, 255, "the middle holds the picture")
        XCTAssertNotEqual(TerminalPicture(fitting: wide, columns: 1, rows: 1, cell: .fallback).id, picture.id, "every picture has its own id")
    }
}

import Foundation
import LocalHTTPServer
import NewsstandImaging
import XCTest

/// Covers as real pictures in a real sixel terminal: `xterm -ti vt340` on Xvfb, its screen read back with xwd.
final class SixelEndToEndTests: EndToEndTestCase {
    /// The cover's one colour: a magenta no 256-colour palette entry comes within 12 of, so half-block text art
    /// (the fallback) cannot pass for it.
    static let coverColor = (220, 40, 180)

    func testTheShelfShowsTheCoverAsASixelPictureAndLeavesNothingBehind() throws {
        let screen = try XtermDisplay()
        let site = home.appendingPathComponent("site", isDirectory: true)
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        let (red, green, blue) = Self.coverColor
        let cover = RasterImage(width: 200, height: 300, red: UInt8(red), green: UInt8(green), blue: UInt8(blue), alpha: 255)
        try ImageEncoder.png(cover).write(to: site.appendingPathComponent("cover.png"))
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>Title</key><string>Colour Weekly</string><key>Issues</key><array>
            <dict><key>Name</key><string>magenta</string><key>Title</key><string>The Magenta Issue</string>
            <key>Date</key><date>2026-01-01T00:00:00Z</date><key>Cover</key><string>cover.png</string>
            <key>Content</key><string>issue.epub</string></dict>
            </array></dict></plist>
            """.utf8).write(to: site.appendingPathComponent("catalog.plist"))
        let server = LocalHTTPServer(root: site)
        try server.start()
        addTeardownBlock { server.stop() }
        var environment = TestEnvironment.environment(home: home)
        environment["TERM"] = "xterm-256color"
        let subscribed = try TestEnvironment.run(["subscribe", server.url(for: "catalog.plist").absoluteString], environment: environment)
        XCTAssertEqual(subscribed.status, 0, subscribed.errors)

        // auto: the terminal's DA1 answer (attribute 4) chooses sixel.
        try screen.startXterm([try TestEnvironment.binary().path], columns: 100, rows: 30, environment: environment)
        var found = (count: 0, box: (0, 0, 0, 0))
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            found = XtermDisplay.pixels(near: Self.coverColor, tolerance: 12, in: try screen.screenshot())
            if found.count > 2000 { break }
            usleep(300_000)
        }
        XCTAssertGreaterThan(found.count, 2000, "the cover's colour is on the screen as a picture")
        XCTAssertLessThan(found.box.2, XtermDisplay.width / 4, "in the cover's place at the left of the shelf: \(found.box)")
        XCTAssertGreaterThan(found.box.3 - found.box.1, found.box.2 - found.box.0, "taller than wide, like the cover: \(found.box)")

        // SIGTERM ends it as a quit does: the terminal is given back with no picture left.
        let program = try XCTUnwrap(screen.terminalChild(), "xterm's child, the program")
        kill(program, SIGTERM)
        var left = 0
        let quitDeadline = Date().addingTimeInterval(10)
        repeat {
            usleep(300_000)
            left = XtermDisplay.pixels(near: Self.coverColor, tolerance: 12, in: try screen.screenshot()).count
        } while left > 0 && Date() < quitDeadline
        XCTAssertEqual(left, 0, "no picture is left on the screen after quitting")
    }
}

import Dispatch
import Foundation
import XCTest
import NewsstandImaging
import NewsstandUI
@testable import NewsstandPictures
import Synchronization

/// Pictures are encoded off the UI thread: while a (slow) encoder runs, keys are handled and frames drawn, and the
/// picture is written by the first frame after its bytes are ready.
final class PictureEncodingOffTheUIThreadTests: XCTestCase {
    /// An encoder that says when it starts and then waits to be let go, standing in for a slow PNG or sixel encoding.
    private final class SlowEncoder: Sendable {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        private let counts = Mutex((running: 0, calls: 0))

        var isRunning: Bool { counts.withLock { $0.running > 0 } }
        var callCount: Int { counts.withLock { $0.calls } }

        func encode(_ picture: TerminalPicture, _ part: PictureEncodingQueue.Part) -> [UInt8] {
            counts.withLock {
                $0.running += 1
                $0.calls += 1
            }
            started.signal()
            _ = release.wait(timeout: .now() + 20)
            counts.withLock { $0.running -= 1 }
            return Array("<picture \(picture.id)>".utf8)
        }
    }

    /// The issue page's cover: 39 × 26 cells at 10 × 20 pixels.
    private static let cover = TerminalPicture(id: 42, columns: 39, rows: 26, image: RasterImage(width: 390, height: 520, red: 90, alpha: 255))

    private func frame(of state: AppState, withCover: Bool) -> CellBuffer {
        var frame = AppView.render(state, theme: .fallback)
        if withCover { frame.placePicture(Self.cover, in: Rect(x: 2, y: 2, width: 39, height: 26)) }
        return frame
    }

    private func elapsed(_ body: () -> Void) -> TimeInterval {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return TimeInterval(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    func testAPictureBeingEncodedDoesNotDelayAKeypress() {
        for (kind, placeholders) in [(PictureProtocol.kitty, true), (.kitty, false), (.sixel, false), (.iterm, false)] {
            let slow = SlowEncoder()
            let ready = expectation(description: "the picture's bytes are ready (\(kind), placeholders: \(placeholders))")
            var output = PictureFrameOutput(kind, kittyPlaceholders: placeholders, throughTmux: false, background: .black,
                                            encode: { slow.encode($0, $1) }, onReady: { ready.fulfill() })
            var state = AppState(width: 100, height: 40)
            let opened = frame(of: state, withCover: true)

            var first: (before: [UInt8], after: [UInt8]) = ([], [])
            let firstTime = elapsed { first = output.frame(opened, isFresh: true) }
            XCTAssertLessThan(firstTime, 0.5, "the frame that shows the cover does not wait for its encoding (\(kind))")
            XCTAssertEqual(slow.started.wait(timeout: .now() + 10), .success, "the encoding runs meanwhile")
            XCTAssertFalse(String(decoding: first.before + first.after, as: UTF8.self).contains("<picture"), "nothing to write yet")

            // A key while the encoder is still at work: handled, and a frame drawn.
            var keyTime: TimeInterval = 0
            keyTime += elapsed { _ = AppUpdate.update(&state, .keyPressed(.character("?"))) }
            XCTAssertEqual(state.screens.last.map { if case .help = $0 { true } else { false } }, true, "the key was handled")
            let help = frame(of: state, withCover: false)
            var second: (before: [UInt8], after: [UInt8]) = ([], [])
            keyTime += elapsed { second = output.frame(help, isFresh: false) }
            XCTAssertLessThan(keyTime, 0.5)
            XCTAssertTrue(slow.isRunning, "the key and its frame came while the picture was being encoded (\(kind))")
            XCTAssertFalse(String(decoding: second.before + second.after, as: UTF8.self).contains("<picture"))

            // Back on the page once the bytes are ready: written as they are, encoded once.
            _ = AppUpdate.update(&state, .keyPressed(.escape))
            slow.release.signal()
            wait(for: [ready], timeout: 10)
            let shown = output.frame(frame(of: state, withCover: true), isFresh: false)
            XCTAssertTrue(String(decoding: shown.before + shown.after, as: UTF8.self).contains("<picture 42>"), "\(kind): written once ready")
            XCTAssertEqual(slow.callCount, 1, "\(kind): encoded once")
            if placeholders {
                let cell = output.text(for: PictureCell(id: 42, row: 3, column: 4))
                XCTAssertEqual(cell.symbol.unicodeScalars.first, KittyPlaceholder.base, "kitty's placeholders are written by the terminal layer")
            } else {
                XCTAssertEqual(output.text(for: PictureCell(id: 42, row: 3, column: 4)), Cell(), "cells under a picture drawn over are blank")
            }
        }
    }

    func testSixelEncodesTheWholePictureOnceAndAPartOnlyWhilePartlyVisible() {
        let parts = PartLog()
        let encoder = PictureEncodingQueue(encode: { picture, part in
            parts.add(part)
            return Array("<\(part.row),\(part.rows)>".utf8)
        })
        var drawer = OverlayPictureDrawer(encoder: encoder)
        let picture = PictureOutputTests.picture(id: 4, columns: 2, rows: 3)
        for top in [1, 1, 2, 1, -1, -1, 1] {
            let frame = PictureOutputTests.frame([(picture, 1, top)])
            _ = drawer.update(for: frame)
            encoder.waitUntilIdle()
            _ = drawer.update(for: frame)
        }
        XCTAssertEqual(parts.all, [.whole(picture), PictureEncodingQueue.Part(id: 4, row: 1, column: 0, rows: 2, columns: 2)],
                       "the whole picture once, moved without encoding again; the part scrolled off the top once")
    }

    private final class PartLog: Sendable {
        private let parts = Mutex<[PictureEncodingQueue.Part]>([])
        func add(_ part: PictureEncodingQueue.Part) { parts.withLock { $0.append(part) } }
        var all: [PictureEncodingQueue.Part] { parts.withLock { $0 } }
    }
}

import XCTest
import NewsstandImaging
@testable import NewsstandPictures

/// The exact bytes of kitty graphics commands.
final class KittyGraphicsTests: XCTestCase {
    /// A 2×1 picture: one red pixel, one half-transparent blue one.
    static let small = TerminalPicture(id: 7, columns: 1, rows: 1, image: RasterImage(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 0, 255, 128]))

    func testTransmitRawPixelsByteForByte() throws {
        let bytes = try KittyGraphics.transmit(Self.small, payload: .rgba)
        // base64 of FF 00 00 FF 00 00 FF 80 is "/wAA/wAA/4A=".
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self),
                       "\u{1B}_Ga=T,U=1,i=7,c=1,r=1,q=2,f=32,s=2,v=1,m=0;/wAA/wAA/4A=\u{1B}\\")
    }

    func testTransmitPNGCarriesTheFile() throws {
        let text = String(decoding: try KittyGraphics.transmit(Self.small, payload: .png), as: UTF8.self)
        let prefix = "\u{1B}_Ga=T,U=1,i=7,c=1,r=1,q=2,f=100,m=0;"
        XCTAssertTrue(text.hasPrefix(prefix), text)
        XCTAssertTrue(text.hasSuffix("\u{1B}\\"))
        let payload = String(text.dropFirst(prefix.count).dropLast(2))
        let decoded = try ImageDecoder.decode(try XCTUnwrap(Data(base64Encoded: payload)))
        XCTAssertEqual(decoded, Self.small.image, "the PNG decodes back to the picture")
    }

    func testLargePicturesAreChunked() throws {
        // 40×40 RGBA = 6400 bytes = 8536 base64 bytes: chunks of 4096, 4096 and 344.
        let image = RasterImage(width: 40, height: 40, red: 10, green: 20, blue: 30, alpha: 255)
        let picture = TerminalPicture(id: 257, columns: 5, rows: 3, image: image) // kitty image 0x0100_0002
        let text = String(decoding: try KittyGraphics.transmit(picture, payload: .rgba), as: UTF8.self)
        let commands = text.components(separatedBy: "\u{1B}\\").dropLast()
        XCTAssertEqual(commands.count, 3)
        XCTAssertTrue(commands[0].hasPrefix("\u{1B}_Ga=T,U=1,i=16777218,c=5,r=3,q=2,f=32,s=40,v=40,m=1;"), String(commands[0].prefix(80)))
        XCTAssertTrue(commands[1].hasPrefix("\u{1B}_Gq=2,m=1;"))
        XCTAssertTrue(commands[2].hasPrefix("\u{1B}_Gq=2,m=0;"))
        let payloads = commands.map { String($0[$0.index(after: $0.firstIndex(of: ";")!)...]) }
        XCTAssertEqual(payloads.map(\.count), [4096, 4096, 344])
        XCTAssertEqual(Data(base64Encoded: payloads.joined()), Data(image.pixels))
    }

    func testDeleteAndTmuxPassthrough() {
        XCTAssertEqual(String(decoding: KittyGraphics.delete(id: 7), as: UTF8.self), "\u{1B}_Ga=d,d=I,i=7,q=2\u{1B}\\")
        XCTAssertEqual(String(decoding: TmuxPassthrough.wrap(KittyGraphics.delete(id: 7)), as: UTF8.self),
                       "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=d,d=I,i=7,q=2\u{1B}\u{1B}\\\u{1B}\\")
    }
}

import Foundation
import NewsstandImaging

/// Kitty graphics protocol commands, as bytes: transmitting a picture for Unicode placeholders, and deleting it.
///
/// A picture is sent once (`a=T,U=1`: transmit and make a virtual placement of `c` × `r` cells that
/// placeholder cells show), its payload in base64 chunks of at most 4096 bytes (`m=1` on every chunk but the
/// last), with `q=2` so the terminal sends no replies into the keyboard input.
public enum KittyGraphics {
    /// How the pixels travel: raw 8-bit RGBA (`f=32`), or a PNG file (`f=100`, smaller on the wire).
    public enum Payload: Sendable {
        case rgba
        case png
    }

    /// The most base64 bytes in one chunk.
    public static let chunkSize = 4096

    /// The commands that send `picture` and place it for Unicode placeholders.
    public static func transmit(_ picture: TerminalPicture, payload: Payload = .png) throws -> [UInt8] {
        let data: Data
        var keys = "a=T,U=1,i=\(picture.id),c=\(picture.columns),r=\(picture.rows),q=2"
        switch payload {
        case .rgba:
            data = Data(picture.image.pixels)
            keys += ",f=32,s=\(picture.image.width),v=\(picture.image.height)"
        case .png:
            data = try ImageEncoder.png(picture.image, fast: true)
            keys += ",f=100"
        }
        let encoded = [UInt8](data.base64EncodedData())
        var output: [UInt8] = []
        output.reserveCapacity(encoded.count + encoded.count / chunkSize * 16 + 64)
        var start = 0
        repeat {
            let end = min(encoded.count, start + chunkSize)
            let isLast = end == encoded.count
            output += Array("\u{1B}_G\(start == 0 ? keys + "," : "q=2,")m=\(isLast ? 0 : 1);".utf8)
            output += encoded[start..<end]
            output += Array("\u{1B}\\".utf8)
            start = end
        } while start < encoded.count
        return output
    }

    /// The command that deletes the picture `id` and frees its data (`a=d,d=I`).
    public static func delete(id: UInt32) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\".utf8)
    }
}

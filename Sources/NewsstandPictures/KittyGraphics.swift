import Foundation
import NewsstandImaging

/// Kitty graphics protocol commands, as bytes: transmitting a picture, placing it, and deleting it.
///
/// Two ways to show a picture. With Unicode placeholders (kitty 0.28 and later) it is sent once (`a=T,U=1`:
/// transmit and make a virtual placement of `c` × `r` cells that placeholder cells show). Without them it is
/// sent once (`a=t`) and placed at the cursor (`a=p`, a part of it scaled to `c` × `r` cells, the cursor left
/// where it was), its placement deleted (`a=d,d=i`) when it moves or goes. Payloads go in base64 chunks of at
/// most 4096 bytes (`m=1` on every chunk but the last), with `q=2` so the terminal sends no replies into the
/// keyboard input. Only keys kitty has had since its graphics protocol began are used without placeholders.
/// Every `id` here is a picture's number (`TerminalPicture.id`); the commands name kitty's image id for it
/// (`KittyPlaceholder.imageID(for:)`).
public enum KittyGraphics {
    /// How the pixels travel: raw 8-bit RGBA (`f=32`), or a PNG file (`f=100`, smaller on the wire).
    public enum Payload: Sendable {
        case rgba
        case png
    }

    /// The most base64 bytes in one chunk.
    public static let chunkSize = 4096

    /// The commands that send `picture` and, with `forPlaceholders`, place it for Unicode placeholders
    /// (otherwise it is only stored, for `place` to show).
    public static func transmit(_ picture: TerminalPicture, payload: Payload = .png, forPlaceholders: Bool = true) throws -> [UInt8] {
        let data: Data
        let image = KittyPlaceholder.imageID(for: picture.id)
        var keys = forPlaceholders ? "a=T,U=1,i=\(image),c=\(picture.columns),r=\(picture.rows),q=2" : "a=t,i=\(image),q=2"
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

    /// The command that shows the part of stored picture `id` from pixel (`x`, `y`), `width` × `height` pixels,
    /// over `columns` × `rows` cells from the cursor, as its one placement (`p=1`: placing it again moves it).
    public static func place(id: UInt32, x: Int, y: Int, width: Int, height: Int, columns: Int, rows: Int) -> [UInt8] {
        Array("\u{1B}_Ga=p,i=\(KittyPlaceholder.imageID(for: id)),p=1,x=\(x),y=\(y),w=\(width),h=\(height),c=\(columns),r=\(rows),C=1,q=2\u{1B}\\".utf8)
    }

    /// The command that takes picture `id` off the screen and keeps its data (`a=d,d=i`).
    public static func deletePlacement(id: UInt32) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=i,i=\(KittyPlaceholder.imageID(for: id)),p=1,q=2\u{1B}\\".utf8)
    }

    /// The command that deletes the picture `id` and frees its data (`a=d,d=I`).
    public static func delete(id: UInt32) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=I,i=\(KittyPlaceholder.imageID(for: id)),q=2\u{1B}\\".utf8)
    }
}

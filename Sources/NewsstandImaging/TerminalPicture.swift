import Foundation
import Synchronization

/// A picture to show with a terminal picture protocol over `columns` × `rows` cells.
///
/// `image` is made at the size shown (at most columns × rows cells of `CellPixelSize`), the picture fitted
/// inside keeping its aspect and centred on transparent pixels. `id` is its number, unique among the pictures
/// of the process (`TerminalPicture.nextID()`), so two pictures are the same when their ids are, and the
/// backend sends each id once. How a protocol names it to the terminal is the picture layer's business
/// (kitty's image ids: `KittyPlaceholder.imageID(for:)`).
public struct TerminalPicture: Sendable {
    public let id: UInt32
    public let columns: Int
    public let rows: Int
    public let image: RasterImage

    public init(id: UInt32, columns: Int, rows: Int, image: RasterImage) {
        self.id = id
        self.columns = columns
        self.rows = rows
        self.image = image
    }

    /// Fits `source` into columns × rows cells of `cell` pixels, with a new id.
    public init(fitting source: RasterImage, columns: Int, rows: Int, cell: CellPixelSize) {
        let width = max(1, columns) * cell.width, height = max(1, rows) * cell.height
        var canvas = RasterImage(width: width, height: height)
        if !source.isEmpty {
            let scale = min(Double(width) / Double(source.width), Double(height) / Double(source.height))
            let fitted = Resampler.areaAverage(source, width: max(1, min(width, Int((Double(source.width) * scale).rounded()))),
                                               height: max(1, min(height, Int((Double(source.height) * scale).rounded()))))
            let left = (width - fitted.width) / 2, top = (height - fitted.height) / 2
            canvas.pixels.withUnsafeMutableBufferPointer { target in
                fitted.pixels.withUnsafeBufferPointer { rows in
                    for y in 0..<fitted.height {
                        let from = y * fitted.width * 4, to = ((top + y) * width + left) * 4
                        for index in 0..<(fitted.width * 4) { target[to + index] = rows[from + index] }
                    }
                }
            }
        }
        self.init(id: Self.nextID(), columns: max(1, columns), rows: max(1, rows), image: canvas)
    }

    /// The id given last, less one.
    private static let counter = Mutex<UInt32>(0)

    /// The most pictures named at once: ids go 1…65,025 and then are used again (as many as kitty's
    /// placeholders can tell apart, 255 colours × 255 diacritics).
    public static let idCount: UInt32 = 255 * 255

    /// A new id, 1…`idCount`.
    public static func nextID() -> UInt32 {
        counter.withLock { counter in
            let number = counter
            counter = (counter + 1) % idCount
            return number + 1
        }
    }
}

extension TerminalPicture: Equatable {
    /// Pictures are equal when they have the same id and cells (an id is never given to two images at once).
    public static func == (lhs: TerminalPicture, rhs: TerminalPicture) -> Bool {
        lhs.id == rhs.id && lhs.columns == rhs.columns && lhs.rows == rhs.rows
    }
}

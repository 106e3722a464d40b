import NewsstandUI

/// Where a picture shows in a frame: the visible part of it, found from its placeholder cells.
///
/// `x`, `y` is the screen cell of the visible part's top-left corner, which shows the picture's cell `row`,
/// `column`; `rows` × `columns` cells are visible. A picture whose placeholder cells do not form one whole
/// rectangle (something drawn over part of it) has no placement: it is not drawn rather than drawn over text.
struct PicturePlacement: Hashable {
    let id: UInt32
    let x: Int
    let y: Int
    let row: Int
    let column: Int
    let rows: Int
    let columns: Int

    /// The screen cells it covers.
    var area: Rect { Rect(x: x, y: y, width: columns, height: rows) }

    /// Every whole placement in `frame`, ordered by id.
    static func find(in frame: CellBuffer) -> [PicturePlacement] {
        guard !frame.pictures.isEmpty else { return [] }
        var corners: [UInt32: (minX: Int, minY: Int, maxX: Int, maxY: Int)] = [:]
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                guard let cell = PictureCell(frame[x, y]) else { continue }
                if let box = corners[cell.id] {
                    corners[cell.id] = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y))
                } else {
                    corners[cell.id] = (x, y, x, y)
                }
            }
        }
        return corners.keys.sorted().compactMap { id in
            let box = corners[id]!
            guard let origin = PictureCell(frame[box.minX, box.minY]), origin.id == id else { return nil }
            for y in box.minY...box.maxY {
                for x in box.minX...box.maxX {
                    guard PictureCell(frame[x, y]) == PictureCell(id: id, row: origin.row + y - box.minY, column: origin.column + x - box.minX) else { return nil }
                }
            }
            return PicturePlacement(id: id, x: box.minX, y: box.minY, row: origin.row, column: origin.column,
                                    rows: box.maxY - box.minY + 1, columns: box.maxX - box.minX + 1)
        }
    }
}

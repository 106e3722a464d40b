import NewsstandImaging

extension CellBuffer {
    /// Writes row `row` of `picture` at (x, y) as picture cells (`PictureCell`), clipped to `maxWidth`
    /// columns and the buffer, and records the picture so the backend can send it.
    public mutating func placePictureRow(_ picture: TerminalPicture, row: Int, x: Int, y: Int, maxWidth: Int? = nil) {
        guard y >= 0, y < height, row >= 0, row < picture.rows else { return }
        let columns = min(picture.columns, maxWidth ?? picture.columns)
        var placed = false
        for column in 0..<columns where x + column >= 0 && x + column < width {
            set(x + column, y, PictureCell(id: picture.id, row: row, column: column).cell)
            placed = true
        }
        if placed { pictures[picture.id] = picture }
    }

    /// Writes as much of `picture` as fits in `area`, from its top-left cell.
    public mutating func placePicture(_ picture: TerminalPicture, in area: Rect) {
        for row in 0..<min(area.height, picture.rows) {
            placePictureRow(picture, row: row, x: area.x, y: area.y + row, maxWidth: area.width)
        }
    }
}

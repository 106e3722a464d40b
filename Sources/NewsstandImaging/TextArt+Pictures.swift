extension TextArt {
    /// The size to decode a picture at before drawing it over columns × rows cells: a few sub-pixels per cell for
    /// text art, the cells' pixels for a terminal picture (`cellPixels`), so nothing is decoded larger than shown.
    public static func decodingSize(columns: Int, rows: Int, cellPixels: CellPixelSize?) -> (width: Int, height: Int) {
        guard let cellPixels else { return (max(1, columns) * 4, max(1, rows) * 8) }
        return (max(1, columns) * cellPixels.width, max(1, rows) * cellPixels.height)
    }

    /// Draws `image` over the options' cells: as a terminal picture when `cellPixels` is given, else as text art.
    public static func render(_ image: RasterImage, options: AsciiArtOptions, cellPixels: CellPixelSize?) -> TextArt {
        guard let cellPixels else { return AsciiArtRenderer.render(image, options: options) }
        guard options.columns > 0, options.rows > 0 else { return .empty }
        return TextArt(picture: TerminalPicture(fitting: image, columns: options.columns, rows: options.rows, cell: cellPixels))
    }
}

import Foundation
import NewsstandImaging

/// iTerm2's inline images (OSC 1337 File): a PNG file stretched over a number of cells at the cursor.
public enum ITermImages {
    /// The sequence that draws `image` over `columns` × `rows` cells (the image already has their aspect).
    public static func inline(_ image: RasterImage, columns: Int, rows: Int) throws -> [UInt8] {
        let png = try ImageEncoder.png(image, fast: true)
        let header = "\u{1B}]1337;File=inline=1;size=\(png.count);width=\(columns);height=\(rows);preserveAspectRatio=0:"
        return Array(header.utf8) + [UInt8](png.base64EncodedData()) + [0x07]
    }
}

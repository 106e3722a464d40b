import Foundation
import NewsstandContent
import NewsstandImaging

/// Comic books for tests: archives of page pictures written with libarchive (`ArchiveWriter`), the pages
/// small PNGs from `ImageEncoder`.
public enum ComicBookFixture {
    /// A PNG of `width` × `height`: a diagonal stripe pattern in the grey `shade`, so there is something to draw.
    public static func png(width: Int = 48, height: Int = 72, shade: UInt8 = 200) throws -> Data {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let value: UInt8 = (x + y) / 6 % 2 == 0 ? shade : 255 - shade
                let index = (y * width + x) * 4
                pixels[index] = value
                pixels[index + 1] = value
                pixels[index + 2] = value
            }
        }
        return try ImageEncoder.png(RasterImage(width: width, height: height, pixels: pixels))
    }

    /// The start of a PNG claiming to be `width` × `height` (a valid signature and IHDR, then an empty IDAT):
    /// a page a decoder must refuse by its size before it allocates anything.
    public static func pngHeader(width: UInt32, height: UInt32) -> Data {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let bytes = Array(type.utf8) + body
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            crc = ~crc
            let count = UInt32(body.count)
            return bigEndian(count) + bytes + bigEndian(crc)
        }
        func bigEndian(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        return Data(signature + chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0])
                    + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00]) + chunk("IEND", []))
    }

    /// Writes an archive at `file`: a PNG for each name in `pages` (in the order given), then `extra` entries.
    public static func write(_ file: URL, pages: [String], extra: [ArchiveWriter.Entry] = [],
                             format: ArchiveWriter.Format = .zip(stored: false)) throws {
        var entries: [ArchiveWriter.Entry] = []
        for (index, name) in pages.enumerated() {
            entries.append(.file(name, try png(shade: UInt8(40 + (index * 37) % 180))))
        }
        try ArchiveWriter.write(entries + extra, to: file, format: format)
    }

    /// A `ComicInfo.xml` entry with a title, series, number and `<Page>` elements (image index, type, bookmark).
    public static func comicInfo(title: String? = nil, series: String? = nil, number: String? = nil,
                                 pages: [(image: Int, type: String?, bookmark: String?)] = []) -> ArchiveWriter.Entry {
        var xml = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n"
        xml += #"<ComicInfo xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">"#
        if let title { xml += "<Title>\(title)</Title>" }
        if let series { xml += "<Series>\(series)</Series>" }
        if let number { xml += "<Number>\(number)</Number>" }
        if !pages.isEmpty {
            xml += "<Pages>"
            for page in pages {
                xml += #"<Page Image="\#(page.image)""#
                if let type = page.type { xml += #" Type="\#(type)""# }
                if let bookmark = page.bookmark { xml += #" Bookmark="\#(bookmark)""# }
                xml += "/>"
            }
            xml += "</Pages>"
        }
        xml += "</ComicInfo>"
        return .file("ComicInfo.xml", Data(xml.utf8))
    }
}

import Foundation

extension ImageDecoder {
    /// The name of the picture format the bytes are in, judged by their signature — those `decode` reads ("PNG",
    /// "JPEG") and common ones it does not ("GIF", "WebP", "AVIF", "HEIF", "JPEG XL", "BMP", "TIFF") — or nil.
    public static func formatName(of data: Data) -> String? {
        switch format(of: data) {
        case .png?: return "PNG"
        case .jpeg?: return "JPEG"
        case nil: break
        }
        let head = Array(data.prefix(12))
        func starts(with bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        if starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) { return "GIF" }
        if starts(with: Array("RIFF".utf8)) && starts(with: Array("WEBP".utf8), at: 8) { return "WebP" }
        if starts(with: Array("ftyp".utf8), at: 4) {
            if starts(with: Array("avif".utf8), at: 8) || starts(with: Array("avis".utf8), at: 8) { return "AVIF" }
            if ["heic", "heix", "mif1", "msf1"].contains(where: { starts(with: Array($0.utf8), at: 8) }) { return "HEIF" }
        }
        if starts(with: [0xFF, 0x0A]) || starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) { return "JPEG XL" }
        if starts(with: Array("II*".utf8) + [0]) || starts(with: Array("MM".utf8) + [0, 0x2A]) { return "TIFF" }
        if starts(with: Array("BM".utf8)) && head.count >= 6 { return "BMP" }
        return nil
    }
}

import Foundation

/// The EXIF orientation of a JPEG (APP1 "Exif" segment, IFD0 tag 0x0112) and how to apply it.
///
/// Values follow the TIFF spec: 1 upright, 2 mirrored, 3 rotated 180°, 4 flipped vertically,
/// 5 transposed, 6 needs 90° clockwise rotation, 7 transversed, 8 needs 90° anticlockwise rotation.
/// Anything missing or unreadable counts as 1.
struct ExifOrientation: Equatable {
    let value: Int

    init(value: Int) {
        self.value = (1...8).contains(value) ? value : 1
    }

    /// Scans the JPEG's marker segments up to the first scan for an Exif orientation tag.
    init(jpeg data: Data) {
        self.init(value: Self.parse(Array(data.prefix(256 * 1024))) ?? 1)
    }

    /// Orientations 5–8 swap width and height.
    var swapsAxes: Bool { value >= 5 }

    func apply(to image: RasterImage) -> RasterImage {
        guard value != 1, !image.isEmpty else { return image }
        let w = image.width, h = image.height
        let outW = swapsAxes ? h : w, outH = swapsAxes ? w : h
        var out = [UInt8](repeating: 0, count: image.pixels.count)
        let orientation = value
        image.pixels.withUnsafeBytes { srcRaw in
            out.withUnsafeMutableBytes { dstRaw in
                let src = srcRaw.bindMemory(to: UInt32.self)
                let dst = dstRaw.bindMemory(to: UInt32.self)
                for y in 0..<outH {
                    for x in 0..<outW {
                        let sx: Int, sy: Int
                        switch orientation {
                        case 2: (sx, sy) = (w - 1 - x, y)
                        case 3: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case 4: (sx, sy) = (x, h - 1 - y)
                        case 5: (sx, sy) = (y, x)
                        case 6: (sx, sy) = (y, h - 1 - x)
                        case 7: (sx, sy) = (w - 1 - y, h - 1 - x)
                        default: (sx, sy) = (w - 1 - y, x) // 8
                        }
                        dst[y * outW + x] = src[sy * w + sx]
                    }
                }
            }
        }
        return RasterImage(width: outW, height: outH, pixels: out)
    }

    private static func parse(_ b: [UInt8]) -> Int? {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }            // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return nil } // start of scan / end: no Exif before image data
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { return nil }
            if marker == 0xE1, length >= 8 {
                let payload = Array(b[(i + 4)..<(i + 2 + length)])
                if payload.starts(with: [0x45, 0x78, 0x69, 0x66, 0, 0]) { // "Exif\0\0"
                    return orientation(tiff: Array(payload.dropFirst(6)))
                }
            }
            i += 2 + length
        }
        return nil
    }

    private static func orientation(tiff t: [UInt8]) -> Int? {
        guard t.count >= 8 else { return nil }
        let little: Bool
        if t[0] == 0x49, t[1] == 0x49 { little = true } else if t[0] == 0x4D, t[1] == 0x4D { little = false } else { return nil }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= t.count else { return nil }
            return little ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let b = u16(o + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for n in 0..<min(count, 512) {
            let entry = ifd + 2 + n * 12
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112 {
                guard u16(entry + 2) == 3, let value = u16(entry + 8) else { return nil }
                return value
            }
        }
        return nil
    }
}

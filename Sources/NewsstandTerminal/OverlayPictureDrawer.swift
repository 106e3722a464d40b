import NewsstandImaging
import NewsstandPictures
import NewsstandUI

/// Draws sixel or iTerm2 pictures over their placeholder cells after each frame, since those protocols have no
/// cells of their own: the backend draws the placeholders as blanks, then writes what `update` returns.
///
/// A placement shown in the last frame and gone or moved in this one (scrolled, covered, another screen) is
/// erased (`erase`: its rows are blanked and redrawn as text); a placement that is new, moved or on a row that
/// was redrawn is drawn again. Each visible part is encoded once and kept (a few dozen, newest kept).
struct OverlayPictureDrawer {
    let protocolKind: PictureProtocol
    /// Composited under transparent pixels (sixel only).
    var background: RGBColor
    private(set) var shown: Set<PicturePlacement> = []
    private var encoded: [PicturePlacement: [UInt8]] = [:]
    private var encodedOrder: [PicturePlacement] = []
    static let encodedCapacity = 48

    init(protocolKind: PictureProtocol, background: RGBColor) {
        self.protocolKind = protocolKind
        self.background = background
    }

    /// What to do for `frame`: areas to erase before it is drawn, and the bytes that draw pictures after it.
    mutating func update(for frame: CellBuffer) -> (erase: [Rect], draw: [UInt8]) {
        let current = Set(PicturePlacement.find(in: frame))
        let gone = shown.subtracting(current)
        let erase = gone.sorted { ($0.y, $0.x, $0.id) < ($1.y, $1.x, $1.id) }.map(\.area)
        var draw: [UInt8] = []
        for placement in current.sorted(by: { ($0.y, $0.x, $0.id) < ($1.y, $1.x, $1.id) }) {
            let isShown = shown.contains(placement) && !erase.contains { $0.overlaps(placement.area) }
            guard !isShown, let picture = frame.pictures[placement.id], let bytes = bytes(for: placement, of: picture) else { continue }
            draw += Array("\u{1B}7\u{1B}[\(placement.y + 1);\(placement.x + 1)H".utf8) + bytes + Array("\u{1B}8".utf8)
        }
        shown = current
        return (erase, draw)
    }

    /// Forgets what is on the screen (after it was cleared): the next update draws every picture again.
    mutating func forgetScreen() {
        shown = []
    }

    /// The bytes that erase `areas` (ECH on each row in the default colours; cursor and colours saved and restored).
    static func eraseCommands(_ areas: [Rect]) -> [UInt8] {
        guard !areas.isEmpty else { return [] }
        var output = Array("\u{1B}7\u{1B}[0m".utf8)
        for area in areas {
            for y in area.y..<area.maxY { output += Array("\u{1B}[\(y + 1);\(area.x + 1)H\u{1B}[\(area.width)X".utf8) }
        }
        return output + Array("\u{1B}8".utf8)
    }

    private mutating func bytes(for placement: PicturePlacement, of picture: TerminalPicture) -> [UInt8]? {
        let key = PicturePlacement(id: placement.id, x: 0, y: 0, row: placement.row, column: placement.column,
                                   rows: placement.rows, columns: placement.columns)
        if let bytes = encoded[key] { return bytes }
        let cellWidth = picture.image.width / max(1, picture.columns), cellHeight = picture.image.height / max(1, picture.rows)
        let part = Self.crop(picture.image, x: placement.column * cellWidth, y: placement.row * cellHeight,
                             width: placement.columns * cellWidth, height: placement.rows * cellHeight)
        let bytes: [UInt8]?
        switch protocolKind {
        case .sixel: bytes = try? SixelEncoder.encode(part, background: background)
        case .iterm: bytes = try? ITermImages.inline(part, columns: placement.columns, rows: placement.rows)
        case .kitty: bytes = nil
        }
        guard let bytes else { return nil }
        encoded[key] = bytes
        encodedOrder.append(key)
        if encodedOrder.count > Self.encodedCapacity { encoded[encodedOrder.removeFirst()] = nil }
        return bytes
    }

    /// The part of `image` in the rectangle (clipped to the image).
    static func crop(_ image: RasterImage, x: Int, y: Int, width: Int, height: Int) -> RasterImage {
        let left = max(0, min(x, image.width)), top = max(0, min(y, image.height))
        let right = max(left, min(x + width, image.width)), bottom = max(top, min(y + height, image.height))
        if left == 0, top == 0, right == image.width, bottom == image.height { return image }
        var pixels: [UInt8] = []
        pixels.reserveCapacity((right - left) * (bottom - top) * 4)
        for row in top..<bottom {
            let start = (row * image.width + left) * 4
            pixels += image.pixels[start..<(start + (right - left) * 4)]
        }
        return RasterImage(width: right - left, height: bottom - top, pixels: pixels)
    }
}

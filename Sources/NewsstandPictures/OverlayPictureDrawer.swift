import NewsstandImaging
import NewsstandUI

/// Draws sixel or iTerm2 pictures over their placeholder cells after each frame, since those protocols have no
/// cells of their own: the backend draws the placeholders as blanks, then writes what `update` returns.
///
/// A placement shown in the last frame and gone or moved in this one (scrolled, covered, another screen) is
/// erased (`erase`: its rows are blanked and redrawn as text); a placement that is new, moved or on a row that
/// was redrawn is drawn again. `encoder` makes the bytes off the UI thread, the whole picture once and a part
/// only while a picture is partly visible, and keeps them; a placement whose bytes are not ready yet is drawn
/// by a later frame (the encoder's `onReady` asks for one).
struct OverlayPictureDrawer {
    let encoder: PictureEncodingQueue
    private(set) var shown: Set<PicturePlacement> = []

    init(encoder: PictureEncodingQueue) {
        self.encoder = encoder
    }

    /// What to do for `frame`: areas to erase before it is drawn, and the bytes that draw pictures after it.
    mutating func update(for frame: CellBuffer) -> (erase: [Rect], draw: [UInt8]) {
        let current = Set(PicturePlacement.find(in: frame))
        let gone = shown.subtracting(current)
        let erase = gone.sorted { ($0.y, $0.x, $0.id) < ($1.y, $1.x, $1.id) }.map(\.area)
        var draw: [UInt8] = []
        var drawn: Set<PicturePlacement> = []
        for placement in current.sorted(by: { ($0.y, $0.x, $0.id) < ($1.y, $1.x, $1.id) }) {
            if shown.contains(placement) && !erase.contains(where: { $0.overlaps(placement.area) }) {
                drawn.insert(placement)
                continue
            }
            guard let picture = frame.pictures[placement.id] else { continue }
            let part = PictureEncodingQueue.Part(id: placement.id, row: placement.row, column: placement.column,
                                                 rows: placement.rows, columns: placement.columns)
            guard let bytes = encoder.bytes(part, of: picture) else {
                // Not ready (or not drawable): a failed part counts as shown, so it is not asked for again.
                if encoder.hasFailed(part) { drawn.insert(placement) }
                continue
            }
            draw += Array("\u{1B}7\u{1B}[\(placement.y + 1);\(placement.x + 1)H".utf8) + bytes + Array("\u{1B}8".utf8)
            drawn.insert(placement)
        }
        shown = drawn
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
}

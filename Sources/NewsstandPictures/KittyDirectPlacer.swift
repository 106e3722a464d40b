import NewsstandUI

/// Shows kitty pictures where the terminal has no Unicode placeholders (kitty before 0.28, or a terminal not
/// known to have them): each picture is transmitted once and placed directly over its cells, which are drawn
/// blank. A placement that went away or moved (scrolled, covered, another screen) is deleted before the frame is
/// drawn; one that is new or moved is placed after it, with the cursor at its top-left cell (saved and restored).
/// The screen is cleared when it is resized or drawn afresh (`forgetScreen`), and a clear frees kitty's pictures
/// with their placements (kitty 0.26 under Xvfb): then every picture is freed outright and sent and placed again.
/// Pictures not shown are freed once more than `capacity` are kept, and all of them when the program ends.
/// A picture is transmitted once `encoder` has its bytes ready (made off the UI thread); until then its cells
/// stay blank and it is placed by a later frame.
struct KittyDirectPlacer {
    var capacity: Int
    let encoder: PictureEncodingQueue
    private(set) var shown: Set<PicturePlacement> = []
    /// Ids in the terminal, least recently shown first.
    private(set) var sent: [UInt32] = []
    private var placesEverything = false

    init(capacity: Int = 64, encoder: PictureEncodingQueue) {
        self.capacity = max(1, capacity)
        self.encoder = encoder
    }

    /// What to write for `frame`: deletions before it is drawn, and transmissions and placements after.
    mutating func update(for frame: CellBuffer) -> (before: [UInt8], after: [UInt8]) {
        let current = Set(PicturePlacement.find(in: frame))
        let order: (PicturePlacement, PicturePlacement) -> Bool = { ($0.y, $0.x, $0.id) < ($1.y, $1.x, $1.id) }
        var before: [UInt8] = []
        if placesEverything {
            before += sent.flatMap { KittyGraphics.delete(id: $0) }
            sent = []
            shown = []
        }
        for placement in shown.subtracting(current).sorted(by: order) where !current.contains(where: { $0.id == placement.id }) {
            before += KittyGraphics.deletePlacement(id: placement.id)
        }
        var after: [UInt8] = []
        var placed = current.intersection(shown)
        for placement in current.sorted(by: order) where !shown.contains(placement) {
            guard let picture = frame.pictures[placement.id] else { continue }
            if let index = sent.firstIndex(of: placement.id) {
                sent.remove(at: index)
            } else if let bytes = encoder.bytes(.whole(picture), of: picture) {
                after += bytes
                encoder.forget(id: placement.id)
            } else {
                continue
            }
            placed.insert(placement)
            sent.append(placement.id)
            let cellWidth = picture.image.width / max(1, picture.columns), cellHeight = picture.image.height / max(1, picture.rows)
            after += Array("\u{1B}7\u{1B}[\(placement.y + 1);\(placement.x + 1)H".utf8)
            after += KittyGraphics.place(id: placement.id, x: placement.column * cellWidth, y: placement.row * cellHeight,
                                         width: placement.columns * cellWidth, height: placement.rows * cellHeight,
                                         columns: placement.columns, rows: placement.rows)
            after += Array("\u{1B}8".utf8)
        }
        placesEverything = false
        shown = placed
        var index = 0
        while sent.count > capacity && index < sent.count {
            if frame.pictures[sent[index]] == nil {
                after += KittyGraphics.delete(id: sent.remove(at: index))
            } else {
                index += 1
            }
        }
        return (before, after)
    }

    /// The screen is about to be cleared (a resize, a fresh start): the next update sends every picture again.
    mutating func forgetScreen() {
        placesEverything = true
    }

    /// The bytes that delete every picture sent, placements and data (when the program ends).
    mutating func deleteAll() -> [UInt8] {
        defer { sent.removeAll(); shown.removeAll() }
        return sent.flatMap { KittyGraphics.delete(id: $0) }
    }
}

import NewsstandImaging
import NewsstandUI

/// Keeps kitty pictures in the terminal: each picture a frame shows is transmitted once its bytes are ready
/// (`encoder` makes them off the UI thread; its placeholder cells are drawn like any text meanwhile, and kitty
/// fills them in when the picture arrives); pictures not shown for a while are deleted once more than
/// `capacity` are kept, and all of them when the program ends. Under tmux every command goes through passthrough.
struct KittyPictureSender {
    var throughTmux: Bool
    var capacity: Int
    let encoder: PictureEncodingQueue
    /// Ids in the terminal, least recently shown first.
    private(set) var sent: [UInt32] = []

    init(throughTmux: Bool, capacity: Int = 64, encoder: PictureEncodingQueue) {
        self.throughTmux = throughTmux
        self.capacity = max(1, capacity)
        self.encoder = encoder
    }

    /// The bytes to write before drawing `frame`: its new pictures whose bytes are ready, and deletions beyond `capacity`.
    mutating func commands(for frame: CellBuffer) -> [UInt8] {
        var output: [UInt8] = []
        for id in frame.pictures.keys.sorted() {
            if let index = sent.firstIndex(of: id) {
                sent.remove(at: index)
            } else if let picture = frame.pictures[id], let bytes = encoder.bytes(.whole(picture), of: picture) {
                output += bytes  // made for this output: wrapped for tmux already
                encoder.forget(id: id)
            } else {
                continue
            }
            sent.append(id)
        }
        var index = 0
        while sent.count > capacity && index < sent.count {
            if frame.pictures[sent[index]] == nil {
                output += wrapped(KittyGraphics.delete(id: sent.remove(at: index)))
            } else {
                index += 1
            }
        }
        return output
    }

    /// The bytes that delete every picture sent (when the program ends).
    mutating func deleteAll() -> [UInt8] {
        defer { sent.removeAll() }
        return sent.flatMap { wrapped(KittyGraphics.delete(id: $0)) }
    }

    private func wrapped(_ bytes: [UInt8]) -> [UInt8] {
        throughTmux ? TmuxPassthrough.wrap(bytes) : bytes
    }
}

import Foundation

/// Body bytes held in memory on their way to a file (a download's partial file, an ``HTTPFileSink``'s file).
// @unchecked: raw memory; its owner fills and writes it under its own lock (an AssetTransfer's `state`, then its
// writing queue once handed off; an HTTPFileSink's Mutex).
final class HeldBlock: @unchecked Sendable {
    let capacity: Int
    let storage: UnsafeMutableRawPointer
    var count = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        storage = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    var room: Int { capacity - count }
    var isFull: Bool { count == capacity }
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

    func append(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        precondition(bytes.count <= room, "a network chunk larger than a download block")
        (storage + count).copyMemory(from: base, byteCount: bytes.count)
        count += bytes.count
    }
}

/// The blocks of one transfer: the one the sink fills, the full ones handed to the writing queue (oldest
/// first, the first being written), and written ones kept for reuse, so a transfer allocates at most
/// `depth + 1` blocks however long it runs. A value its transfer keeps in its `state` Mutex.
struct TransferBuffers {
    /// Bytes in a block.
    let blockSize: Int
    /// Full blocks that may wait for the disk while the next one fills.
    let depth: Int
    /// The block the sink fills (nil until a response is accepted).
    private(set) var filling: HeldBlock?
    /// Blocks handed to the writing queue, oldest first.
    private(set) var queued: [HeldBlock] = []
    private var spares: [HeldBlock] = []
    /// The most body bytes held at once (tests).
    private(set) var peakHeld = 0

    init(blockSize: Int, queuedBlocks: Int) {
        self.blockSize = blockSize
        depth = max(1, queuedBlocks)
    }

    /// Another block may be handed to the writing queue.
    var canQueue: Bool { queued.count < depth }

    /// A response was accepted: the sink has a block to fill.
    mutating func startFilling() {
        if filling == nil { filling = takeSpare() }
    }

    /// Copies a network chunk into the block being filled. A chunk that overflows it completes it and hands
    /// it off (then `true`); when the queue is already full nothing is copied and the answer is nil (the sink
    /// pauses the transfer until a write is done).
    mutating func take(_ bytes: UnsafeRawBufferPointer) -> Bool? {
        guard let block = filling else { return nil }
        guard bytes.count > block.room else {
            block.append(bytes)
            return false
        }
        guard canQueue else { return nil }
        let room = block.room
        block.append(UnsafeRawBufferPointer(rebasing: bytes[..<room]))
        queued.append(block)
        let next = takeSpare()
        filling = next
        next.append(UnsafeRawBufferPointer(rebasing: bytes[room...]))
        return true
    }

    /// Hands the block being filled to the writing queue and starts another.
    mutating func handOffFilling() {
        guard let block = filling else { return }
        queued.append(block)
        filling = takeSpare()
    }

    /// The block the writing queue writes next.
    var nextToWrite: HeldBlock? { queued.first }

    /// The oldest queued block was written: it is kept for reuse.
    mutating func written() {
        guard !queued.isEmpty else { return }
        recycle([queued.removeFirst()])
    }

    /// Takes every block still held, oldest first (to be written at the end of a request or on cancel).
    mutating func takeHeld() -> [HeldBlock] {
        var held = queued
        queued = []
        if let filling, filling.count > 0 {
            held.append(filling)
            self.filling = nil
        }
        return held
    }

    /// Keeps written blocks for reuse (no more than a full queue's worth).
    mutating func recycle(_ blocks: [HeldBlock]) {
        for block in blocks {
            block.count = 0
            if filling == nil {
                filling = block
            } else if spares.count < depth {
                spares.append(block)
            }
        }
    }

    /// Records how many bytes are held now, for `peakHeld`.
    mutating func notePeak() {
        peakHeld = max(peakHeld, (filling?.count ?? 0) + queued.reduce(0) { $0 + $1.count })
    }

    private mutating func takeSpare() -> HeldBlock {
        spares.popLast() ?? HeldBlock(capacity: blockSize)
    }
}

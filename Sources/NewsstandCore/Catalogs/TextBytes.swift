import Foundation

/// A growable run of bytes that a streaming reader fills piece by piece and reads back in place:
/// the text of the element being read. An `Array` paid a uniqueness check and generic append code
/// on each of the hundreds of thousands of pieces a large feed comes in; this copies with `memcpy`.
/// One owner, one thread.
final class TextBytes {
    private static let initialCapacity = 256
    private var storage: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    private(set) var count = 0

    init(capacity: Int = initialCapacity) {
        self.capacity = max(16, capacity)
        storage = .allocate(capacity: self.capacity)
    }

    deinit {
        storage.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// The bytes, valid until the next change.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage, count: count) }

    @inline(__always)
    func append(_ piece: UnsafeBufferPointer<UInt8>) {
        guard let base = piece.baseAddress, piece.count > 0 else { return }
        if count + piece.count > capacity { grow(toAtLeast: count + piece.count) }
        (storage + count).update(from: base, count: piece.count)
        count += piece.count
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        if count == capacity { grow(toAtLeast: count + 1) }
        storage[count] = byte
        count += 1
    }

    /// Empties it; the storage is kept unless it grew past `keptCapacity` (one huge text does not
    /// hold its memory for the small ones after it).
    func removeAll(keepingCapacityUpTo keptCapacity: Int) {
        count = 0
        guard capacity > keptCapacity else { return }
        storage.deallocate()
        capacity = Self.initialCapacity
        storage = .allocate(capacity: capacity)
    }

    private func grow(toAtLeast needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStorage.update(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }
}

import Foundation

/// The last few short attribute values a reader decoded, found again by their bytes. A feed's
/// `rel`, `type` and `medium` take a handful of values over thousands of elements: each is decoded
/// and stored once, and the same String is handed out again (no allocation, one retain).
/// One owner, one thread.
final class RecentValues {
    static let slots = 8
    /// Longer values are decoded each time, never kept.
    static let maxBytes = 64

    /// `slots` runs of `maxBytes`: the bytes of each kept value.
    private let pool = UnsafeMutablePointer<UInt8>.allocate(capacity: slots * maxBytes)
    @exclusivity(unchecked) private var lengths = [Int](repeating: -1, count: slots)
    @exclusivity(unchecked) private var values = [String](repeating: "", count: slots)
    @exclusivity(unchecked) private var next = 0

    deinit {
        pool.deallocate()
    }

    /// The String for `bytes`: a kept one with the same bytes, else `decode(bytes)` (kept when short).
    func value(_ bytes: UnsafeBufferPointer<UInt8>, decode: (UnsafeBufferPointer<UInt8>) -> String) -> String {
        let count = bytes.count
        for slot in 0..<Self.slots where lengths[slot] == count {
            if count == 0 || memcmp(pool + slot * Self.maxBytes, bytes.baseAddress!, count) == 0 { return values[slot] }
        }
        let value = decode(bytes)
        guard count <= Self.maxBytes else { return value }
        if let base = bytes.baseAddress { (pool + next * Self.maxBytes).update(from: base, count: count) }
        lengths[next] = count
        values[next] = value
        next = (next + 1) % Self.slots
        return value
    }
}

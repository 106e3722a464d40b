/// A set of strings that keeps each one's hash: growing never hashes a string again, and a lookup
/// compares strings only when their hashes match. A feed's issue names (thousands, often alike up
/// to their last digits) go in one by one; `Set<String>` compared them on every step of a probe.
///
/// Hashes are `String.hashValue` (seeded per process, so a feed cannot choose names that collide).
struct StringSet {
    /// Open addressing, linear probing: `slots[i]` is 0 when empty, else an index into `strings` plus one.
    private var slots: [Int32] = []
    private var hashes: [Int] = []
    private var strings: [String] = []

    var count: Int { strings.count }

    /// Adds `string`; false when it was already there.
    mutating func insert(_ string: String) -> Bool {
        if slots.count < 2 * (strings.count + 1) { grow() }
        let hash = string.hashValue
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 {
            let index = Int(slots[slot] - 1)
            if hashes[index] == hash && strings[index] == string { return false }
            slot = (slot + 1) & mask
        }
        slots[slot] = Int32(strings.count + 1)
        hashes.append(hash)
        strings.append(string)
        return true
    }

    /// Twice the slots (at least 16), every string placed again by its kept hash.
    private mutating func grow() {
        let capacity = max(16, slots.count * 2)
        slots = [Int32](repeating: 0, count: capacity)
        let mask = capacity - 1
        for (index, hash) in hashes.enumerated() {
            var slot = hash & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index + 1)
        }
    }
}

/// A set of strings that keeps each one's hash beside it: growing never hashes a string again, and
/// a lookup compares strings only when their hashes match. A feed's issue names (thousands, often
/// alike up to their last digits) go in one by one; `Set<String>` compared them on every step of a
/// probe and hashed them all again each time it grew.
///
/// Hashes are `String.hashValue` (seeded per process, so a feed cannot choose names that collide).
struct StringSet {
    /// Open addressing, linear probing: a slot holds a string's hash and its index in `strings`
    /// plus one (0: empty), so a probe reads one slot and no string unless the hashes match.
    private var slots: [(hash: Int, index: Int32)] = []
    private var strings: [String] = []

    var count: Int { strings.count }

    /// Adds `string`; false when it was already there.
    mutating func insert(_ string: String) -> Bool {
        if slots.count < 2 * (strings.count + 1) { grow() }
        let hash = string.hashValue
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot].index != 0 {
            if slots[slot].hash == hash && strings[Int(slots[slot].index - 1)] == string { return false }
            slot = (slot + 1) & mask
        }
        slots[slot] = (hash, Int32(strings.count + 1))
        strings.append(string)
        return true
    }

    /// Twice the slots (at least 16), every string placed again by its kept hash.
    private mutating func grow() {
        let old = slots
        let capacity = max(16, slots.count * 2)
        slots = Array(repeating: (0, 0), count: capacity)
        let mask = capacity - 1
        for entry in old where entry.index != 0 {
            var slot = entry.hash & mask
            while slots[slot].index != 0 { slot = (slot + 1) & mask }
            slots[slot] = entry
        }
    }
}

/// A set of strings that keeps each one's hash beside it: growing never hashes a string again, and
/// a lookup compares strings only when their hashes match. A feed's issue names (thousands, often
/// alike up to their last digits) go in one by one; `Set<String>` compared them on every step of a
/// probe and hashed them all again each time it grew.
///
/// Hashes are `String.hashValue` (seeded per process, so a feed cannot choose names that collide).
struct StringSet {
    /// Open addressing, linear probing: a slot holds the top 32 bits of a string's hash (`hash << 32`) and its
    /// index in `strings` plus one (0: empty), so a probe reads one slot and no string unless the hashes match.
    /// Eight bytes a slot, not sixteen: a feed's thousands of names probe a table half the size, which stays
    /// in the processor's cache (a probe is a random read: a miss was most of an insert's time).
    private var slots: [UInt64] = []
    private var strings: [String] = []

    var count: Int { strings.count }

    /// Adds `string`; false when it was already there.
    mutating func insert(_ string: String) -> Bool {
        if slots.count < 2 * (strings.count + 1) { grow() }
        let hash = UInt64(UInt(bitPattern: string.hashValue) >> UInt(UInt.bitWidth - 32))
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            if slots[slot] >> 32 == hash && strings[Int(truncatingIfNeeded: slots[slot] & 0xFFFF_FFFF) - 1] == string { return false }
            slot = (slot + 1) & mask
        }
        slots[slot] = hash << 32 | UInt64(strings.count + 1)
        strings.append(string)
        return true
    }

    /// Twice the slots (at least 16), every string placed again by its kept hash.
    private mutating func grow() {
        let old = slots
        let capacity = max(16, slots.count * 2)
        slots = Array(repeating: 0, count: capacity)
        let mask = capacity - 1
        for entry in old where entry != 0 {
            var slot = Int(truncatingIfNeeded: entry >> 32) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = entry
        }
    }
}

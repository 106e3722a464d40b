/// Finds, once a feed is read, the issues whose name an earlier issue has (the first of them is kept).
///
/// The names' hashes are kept in order as the issues are made, and looked up only at the end, in one loop. A table
/// of the names filled while the feed was read was pushed out of the processor's cache by the parsing between two
/// names, so each insert waited on memory; filled in one loop it stays in the cache. A slot holds the top 32 bits
/// of a name's hash and the name's position plus one (0: empty), so a probe compares names only when their hashes
/// match. Hashes are `String.hashValue`, seeded per process: a feed cannot choose names that collide.
enum RepeatedNames {
    /// The positions, in order, of the names an earlier name equals (as `String` compares them). `hashes[i]` is
    /// `name(i).hashValue`; `name` is asked only for names whose hashes meet.
    static func laterPositions(hashes: [Int], name: (Int) -> String) -> [Int] {
        guard hashes.count > 1 else { return [] }
        var capacity = 16
        while capacity < 2 * hashes.count { capacity *= 2 }
        var slots = [UInt64](repeating: 0, count: capacity)
        let mask = capacity - 1
        var repeated: [Int] = []
        for position in hashes.indices {
            let hash = UInt64(UInt(bitPattern: hashes[position]) >> UInt(UInt.bitWidth - 32))
            var slot = Int(truncatingIfNeeded: hash) & mask
            var isRepeat = false
            while slots[slot] != 0 {
                if slots[slot] >> 32 == hash && name(Int(truncatingIfNeeded: slots[slot] & 0xFFFF_FFFF) - 1) == name(position) {
                    isRepeat = true
                    break
                }
                slot = (slot + 1) & mask
            }
            if isRepeat {
                repeated.append(position)
            } else {
                slots[slot] = hash << 32 | UInt64(position + 1)
            }
        }
        return repeated
    }
}

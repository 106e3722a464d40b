/// Gives each new issue of one publication a free handle: the first of its `IssueHandle.candidates` that is free,
/// else the last candidate numbered `-2`, `-3`… It remembers the handles it found taken and where each numbering
/// stands, so in a batch of many issues with one title each costs one claim, and a numbering is looked up once (in
/// a few look-ups), not once per issue.
struct IssueHandleAllocator {
    /// Handles taken, as far as this allocator has seen: every one it claimed, given or not.
    private var taken: Set<String> = []
    /// For each numbered base, the next number to try.
    private var nextNumbers: [String: Int] = [:]

    /// The handle `claim` accepted. `claim(handle)` gives the issue the handle when it is free, and says whether it
    /// did (false: another issue has it); `isTaken(handle)` only looks, to find where a numbering stands.
    mutating func assign(candidates: [String], isTaken: (String) throws -> Bool, claim: (String) throws -> Bool) throws -> String {
        precondition(!candidates.isEmpty, "an issue has at least one candidate handle")
        for candidate in candidates where taken.insert(candidate).inserted {
            if try claim(candidate) { return candidate }
        }
        let base = candidates[candidates.count - 1]
        var number = try nextNumbers[base] ?? Self.firstFreeNumber(base, isTaken: isTaken)
        while true {
            let handle = "\(base)-\(number)"
            number += 1
            guard taken.insert(handle).inserted else { continue }
            if try claim(handle) {
                nextNumbers[base] = number
                return handle
            }
        }
    }

    /// The first n ≥ 2 whose `base-n` is free, when the numbers taken run from 2 without a gap (as they are given):
    /// about 2·log₂ n look-ups, doubling then halving. With gaps, some free number; any will do.
    static func firstFreeNumber(_ base: String, isTaken: (String) throws -> Bool) throws -> Int {
        var taken = 1
        var free = 2
        while try isTaken("\(base)-\(free)") {
            taken = free
            free *= 2
        }
        while free - taken > 1 {
            let middle = (taken + free) / 2
            if try isTaken("\(base)-\(middle)") { taken = middle } else { free = middle }
        }
        return free
    }
}

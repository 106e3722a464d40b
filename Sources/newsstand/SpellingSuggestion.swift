/// Finds the known word a mistyped one most likely meant, for "did you mean …?" in usage errors
/// (an unknown command, an unknown option).
enum SpellingSuggestion {
    /// The candidate nearest to `typed` when one is close: within a small edit distance (a third of the
    /// typed word's length, at least 1, at most 3, counting a swap of neighbours as one edit), or starting
    /// with the typed word when it has 3 letters or more. Leading dashes are ignored, so `-json` finds
    /// `--json`. Ties go to the earlier candidate.
    static func nearest(to typed: String, among candidates: [String]) -> String? {
        let word = Array(undashed(typed).lowercased())
        let allowed = min(3, max(1, word.count / 3))
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let other = Array(undashed(candidate).lowercased())
            let distance = editDistance(word, other)
            let close = distance <= allowed || (word.count >= 3 && other.starts(with: word))
            if close && distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`: the optimal string
    /// alignment distance.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    private static func undashed(_ word: String) -> Substring {
        word.drop { $0 == "-" }
    }
}

/// Orders names as people read them: runs of digits by their value ("page2" before "page10"),
/// everything else ignoring case; paths folder by folder.
///
/// Ties (names that differ only in case or in leading zeros) are broken by the names' plain order,
/// so every two different names have one order and a sort is the same on every run.
public enum NaturalOrder {
    /// Whether name `a` comes before name `b`.
    public static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        let order = compare(a, b)
        return order != 0 ? order < 0 : a < b
    }

    /// Whether path `a` comes before path `b` (components split on "/", compared one by one; a folder's
    /// own path before what is inside it).
    public static func pathsInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        let order = comparePaths(pathKey(a), pathKey(b))
        return order != 0 ? order < 0 : a < b
    }

    /// `paths` in the order of `pathsInIncreasingOrder`, each path's key made once (a 500-page book
    /// sorts in about a millisecond).
    public static func sortedPaths(_ paths: [String]) -> [String] {
        let keys = paths.map(pathKey)
        return paths.indices.sorted { i, j in
            let order = comparePaths(keys[i], keys[j])
            return order != 0 ? order < 0 : paths[i] < paths[j]
        }.map { paths[$0] }
    }

    /// -1, 0 or 1: the natural order of two names, digits by value and letters ignoring case
    /// (0 for names that differ only in case or leading zeros).
    public static func compare(_ a: String, _ b: String) -> Int {
        compareKeys(key(a), key(b))
    }

    /// What names are compared by: their lowercased scalars.
    private static func key(_ name: some StringProtocol) -> [Unicode.Scalar] { Array(name.lowercased().unicodeScalars) }

    private static func pathKey(_ path: String) -> [[Unicode.Scalar]] { path.split(separator: "/").map(key) }

    private static func comparePaths(_ left: [[Unicode.Scalar]], _ right: [[Unicode.Scalar]]) -> Int {
        for (x, y) in zip(left, right) {
            let order = compareKeys(x, y)
            if order != 0 { return order }
        }
        return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
    }

    private static func compareKeys(_ left: [Unicode.Scalar], _ right: [Unicode.Scalar]) -> Int {
        var i = 0, j = 0
        while i < left.count && j < right.count {
            if isDigit(left[i]) && isDigit(right[j]) {
                let leftEnd = digitRunEnd(left, from: i), rightEnd = digitRunEnd(right, from: j)
                let order = compareNumbers(left[i..<leftEnd], right[j..<rightEnd])
                if order != 0 { return order }
                i = leftEnd
                j = rightEnd
                continue
            }
            if left[i] != right[j] { return left[i].value < right[j].value ? -1 : 1 }
            i += 1
            j += 1
        }
        let leftRest = left.count - i, rightRest = right.count - j
        return leftRest == rightRest ? 0 : (leftRest < rightRest ? -1 : 1)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 48 && scalar.value <= 57 }

    private static func digitRunEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var end = start
        while end < scalars.count && isDigit(scalars[end]) { end += 1 }
        return end
    }

    /// Two runs of ASCII digits by value, of any length (no overflow): without leading zeros the
    /// shorter is smaller, and runs of one length compare digit by digit.
    private static func compareNumbers(_ a: ArraySlice<Unicode.Scalar>, _ b: ArraySlice<Unicode.Scalar>) -> Int {
        let x = a.drop { $0 == "0" }, y = b.drop { $0 == "0" }
        if x.count != y.count { return x.count < y.count ? -1 : 1 }
        for (p, q) in zip(x, y) where p != q { return p.value < q.value ? -1 : 1 }
        return 0
    }
}

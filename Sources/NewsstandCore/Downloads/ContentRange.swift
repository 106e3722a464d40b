import Foundation

/// A `Content-Range: bytes FIRST-LAST/TOTAL` header (TOTAL may be `*`), or `bytes */TOTAL` for a 416.
struct ContentRange: Equatable {
    var first: Int64
    var last: Int64
    var total: Int64?

    init?(_ header: String) {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes") else { return nil }
        let spec = text.dropFirst(5).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        total = Int64(parts[1])
        if parts[0] == "*" {
            first = -1
            last = -1
            return
        }
        let bounds = parts[0].split(separator: "-", maxSplits: 1).map { Int64($0) }
        guard bounds.count == 2, let first = bounds[0], let last = bounds[1], first <= last else { return nil }
        self.first = first
        self.last = last
    }
}

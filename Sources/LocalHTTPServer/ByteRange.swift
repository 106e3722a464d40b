/// What a `Range` header asks of a representation of a given length (RFC 9110 §14), single ranges only.
enum ByteRange: Equatable {
    /// Serve these bytes (inclusive bounds, already clamped to the length) with 206.
    case satisfiable(first: Int, last: Int)
    /// Syntactically fine but outside the representation: answer 416.
    case unsatisfiable
    /// Not a usable byte range (other unit, malformed, or several ranges): ignore it and serve 200.
    case ignored

    /// Interprets `bytes=N-`, `bytes=N-M` and `bytes=-K` against `length`.
    static func parse(_ header: String, length: Int) -> ByteRange {
        let trimmed = header.trimmingSpaces()
        guard let equals = trimmed.firstIndex(of: "="),
              trimmed[..<equals].trimmingSpaces().lowercased() == "bytes" else { return .ignored }
        let spec = String(trimmed[trimmed.index(after: equals)...]).trimmingSpaces()
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .ignored }
        let firstText = String(spec[..<dash]).trimmingSpaces()
        let lastText = String(spec[spec.index(after: dash)...]).trimmingSpaces()
        switch (digits(firstText), digits(lastText)) {
        case (nil, let suffix?) where firstText.isEmpty:
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            return .satisfiable(first: max(0, length - suffix), last: length - 1)
        case (let first?, nil) where lastText.isEmpty:
            guard first < length else { return .unsatisfiable }
            return .satisfiable(first: first, last: length - 1)
        case (let first?, let last?):
            guard last >= first else { return .ignored }
            guard first < length else { return .unsatisfiable }
            return .satisfiable(first: first, last: min(last, length - 1))
        default:
            return .ignored
        }
    }

    private static func digits(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(text) ?? Int.max  // absurdly large positions are still "past the end"
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP optional whitespace).
    func trimmingSpaces() -> String {
        var scalars = Substring(self).unicodeScalars[...]
        while let f = scalars.first, f == " " || f == "\t" { scalars.removeFirst() }
        while let l = scalars.last, l == " " || l == "\t" { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}

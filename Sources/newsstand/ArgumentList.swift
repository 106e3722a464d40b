/// A command line's words, consumed as options and positional arguments are recognised.
struct ArgumentList {
    private(set) var words: [String]

    init(_ words: [String]) {
        self.words = words
    }

    /// Removes `--name` if present.
    mutating func flag(_ name: String) -> Bool {
        guard let index = words.firstIndex(of: name) else { return false }
        words.remove(at: index)
        return true
    }

    /// Removes `--name VALUE` or `--name=VALUE` and returns the value.
    mutating func option(_ name: String) throws -> String? {
        if let index = words.firstIndex(where: { $0.hasPrefix(name + "=") }) {
            return String(words.remove(at: index).dropFirst(name.count + 1))
        }
        guard let index = words.firstIndex(of: name) else { return nil }
        guard index + 1 < words.count else { throw UsageError("\(name) needs a value") }
        let value = words[index + 1]
        words.removeSubrange(index...index + 1)
        return value
    }

    /// Removes `--name N` and returns it as a number.
    mutating func integerOption(_ name: String, range: ClosedRange<Int>) throws -> Int? {
        guard let text = try option(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("\(name) takes a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// Removes and returns the next positional word.
    mutating func positional(_ what: String) throws -> String {
        guard let index = words.firstIndex(where: { !$0.hasPrefix("--") || $0 == "-" }) else {
            throw UsageError("missing \(what)")
        }
        return words.remove(at: index)
    }

    /// Fails on anything left over.
    func finish() throws {
        if let extra = words.first { throw UsageError("unexpected argument '\(extra)'") }
    }
}

/// A mistake in how the program was called; printed with a pointer to --help, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

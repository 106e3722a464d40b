import Foundation

/// What `--json` prints: one value, pretty-printed with sorted keys and unescaped slashes, then a newline.
enum JSONOutput {
    /// Writes `value` to standard output; `snakeCase`: keys spelled `like_this` from Swift's `likeThis`.
    static func print(_ value: some Encodable, snakeCase: Bool = false) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if snakeCase { encoder.keyEncodingStrategy = .convertToSnakeCase }
        FileHandle.standardOutput.write(try encoder.encode(value))
        Swift.print()
    }
}

/// A `bind KEY COMMAND [SCREEN…]` or `unbind KEY [SCREEN…]` line of the config file, as written; the interface,
/// which knows the keys, commands and screens, checks it and applies it to its key table.
public struct KeyBindingLine: Equatable, Sendable {
    public enum Verb: String, Sendable {
        case bind, unbind
    }

    /// The file it was read from, and its line there (from 1).
    public let source: String
    public let line: Int
    public let verb: Verb
    /// The words after the verb.
    public let arguments: [String]

    /// Where it was written, for messages: "~/.config/newsstand/config, line 3".
    public var place: String { "\(source), line \(line)" }

    public init(source: String = "config", line: Int, verb: Verb, arguments: [String]) {
        self.source = source
        self.line = line
        self.verb = verb
        self.arguments = arguments
    }
}

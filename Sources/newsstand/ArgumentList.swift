/// The words after the command word, split by the command's declared options into options (with their
/// values) and positional arguments. The command takes what it reads; `finish()` rejects what is left.
///
/// Parsing follows the usual conventions: an option takes its value as `--name VALUE` or `--name=VALUE`
/// (the next word whatever it looks like, except `--`); `--` ends the options, so every word after it is
/// positional even when it starts with `-`; a lone `-` is positional; `--help` or `-h` before `--` asks for
/// the command's help. Any other word starting with `-` is a mistake, named with the nearest option the
/// command has.
struct ArgumentList {
    /// The command's declared options, by name.
    private let declared: [String: CommandOption]
    /// The options given, in order; a flag's value is nil.
    private var given: [(name: String, value: String?)] = []
    /// The positional words not taken yet, in order.
    private var positionals: [String] = []
    /// The options the command has asked for, so `finish()` can check the table against the code.
    private var asked: Set<String> = []
    /// `--help` or `-h` was given (before any `--`): the caller prints the command's help instead of running it.
    private(set) var helpRequested = false

    /// Parses `words` by `command`'s options. Throws a `UsageError` for an unknown option, an option lacking
    /// its value or a flag given one; not when help was asked for, which wins over mistakes.
    init(_ words: [String], for command: CommandDefinition) throws {
        declared = Dictionary(command.options.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var mistake: UsageError?
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if word == "--" {
                positionals += words[index...]
                break
            }
            guard word.hasPrefix("-"), word != "-" else {
                positionals.append(word)
                continue
            }
            if word == "--help" || word == "-h" {
                helpRequested = true
                continue
            }
            let equals = word.hasPrefix("--") ? word.firstIndex(of: "=") : nil
            let name = equals.map { String(word[..<$0]) } ?? word
            let inlineValue = equals.map { String(word[word.index(after: $0)...]) }
            guard let option = declared[name] else {
                mistake = mistake ?? Self.unknownOption(name, of: command)
                continue
            }
            if !option.takesValue {
                if inlineValue != nil { mistake = mistake ?? UsageError("\(name) takes no value") }
                given.append((name, nil))
            } else if let inlineValue {
                given.append((name, inlineValue))
            } else if index < words.count && words[index] != "--" {
                given.append((name, words[index]))
                index += 1
            } else {
                mistake = mistake ?? UsageError("\(name) needs a value (\(option.usage))")
            }
        }
        if let mistake, !helpRequested { throw mistake }
    }

    /// `unknown option '--jsn' for 'list' (did you mean --json?)`, or the command's options when none is close.
    static func unknownOption(_ name: String, of command: CommandDefinition) -> UsageError {
        let known = command.options.map(\.name) + ["--help"]
        let hint: String
        if let nearest = SpellingSuggestion.nearest(to: name, among: known) {
            hint = "did you mean \(nearest)?"
        } else {
            let listed = command.options.filter { !$0.isHidden }.map(\.usage)
            hint = listed.isEmpty ? "it takes no options" : "its options: " + listed.joined(separator: ", ")
        }
        return UsageError("unknown option '\(name)' for \(command.displayName) (\(hint))")
    }

    /// Takes the flag `name`: true if it was given (once or more).
    mutating func flag(_ name: String) -> Bool {
        assert(declared[name].map { !$0.takesValue } ?? false, "\(name) is not a flag declared in the command table")
        asked.insert(name)
        let found = given.contains { $0.name == name }
        given.removeAll { $0.name == name }
        return found
    }

    /// Takes the option `name` and returns its value (the last one, if given more than once).
    mutating func option(_ name: String) -> String? {
        assert(declared[name]?.takesValue ?? false, "\(name) is not an option with a value declared in the command table")
        asked.insert(name)
        let value = given.last { $0.name == name }?.value
        given.removeAll { $0.name == name }
        return value
    }

    /// Takes the option `name` as a number within `range`.
    mutating func integerOption(_ name: String, range: ClosedRange<Int>) throws -> Int? {
        guard let text = option(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("\(name) takes a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// Takes the next positional word; `what` names it in the error when there is none.
    mutating func positional(_ what: String) throws -> String {
        guard !positionals.isEmpty else { throw UsageError("missing \(what)") }
        return positionals.removeFirst()
    }

    /// Takes every remaining positional word, at least one.
    mutating func positionals(_ what: String) throws -> [String] {
        guard !positionals.isEmpty else { throw UsageError("missing \(what)") }
        defer { positionals.removeAll() }
        return positionals
    }

    /// True while positional words are left to take.
    var hasPositional: Bool { !positionals.isEmpty }

    /// Fails on a positional word left over. In a debug build, also traps when the command did not ask
    /// for every option its row declares: the table and the code must agree.
    func finish() throws {
        assert(declared.keys.allSatisfy(asked.contains),
               "options declared in the command table but never read: \(declared.keys.filter { !asked.contains($0) }.sorted())")
        if let extra = positionals.first { throw UsageError("unexpected argument '\(extra)'") }
        if let extra = given.first { throw UsageError("unexpected option '\(extra.name)'") }
    }
}

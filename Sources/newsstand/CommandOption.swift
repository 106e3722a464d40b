/// An option a command accepts, as declared in its row of `CommandTable`: a flag (`--json`) or an
/// option with a value (`--keep N`). `ArgumentList` parses by these, so it can tell an option's value
/// from a positional word and name a mistyped option; `CommandDefinition` writes them into the synopsis;
/// the completion scripts offer their names and values.
struct CommandOption: Sendable, Equatable {
    /// The option as typed, with its dashes: `--keep`.
    let name: String
    /// What the value is called in the synopsis (`N`, `none|latest|all`); nil for a flag.
    let valueName: String?
    /// Accepted but left out of the synopsis (the shelf's `--version`, which has a usage line of its own).
    let isHidden: Bool
    /// What a shell offers for the value.
    let completion: ValueCompletion

    /// A flag: `--json`.
    static func flag(_ name: String, hidden: Bool = false) -> CommandOption {
        CommandOption(name: name, valueName: nil, isHidden: hidden, completion: .nothing)
    }

    /// An option taking a value, given as `--name VALUE` or `--name=VALUE`.
    static func value(_ name: String, _ valueName: String, completes completion: ValueCompletion = .nothing) -> CommandOption {
        CommandOption(name: name, valueName: valueName, isHidden: false, completion: completion)
    }

    /// An option taking one of `choices` (the cases of the enum that defines them); the synopsis names them
    /// (`none|latest|all`) unless `valueName` is given (`MODE`, when they are too many for a synopsis).
    static func choice(_ name: String, _ valueName: String, _ choices: [String]) -> CommandOption {
        CommandOption(name: name, valueName: valueName, isHidden: false, completion: .choices(choices))
    }

    /// An option taking one of `choices`, named in the synopsis as they are: `--auto-download none|latest|all`.
    static func choice(_ name: String, _ choices: [String]) -> CommandOption {
        choice(name, choices.joined(separator: "|"), choices)
    }

    var takesValue: Bool { valueName != nil }

    /// How the synopsis writes it: `--keep N`, `--json`.
    var usage: String { valueName.map { "\(name) \($0)" } ?? name }
}

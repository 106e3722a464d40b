/// An option a command accepts, as declared in its row of `CommandTable`: a flag (`--json`) or an
/// option with a value (`--keep N`). `ArgumentList` parses by these, so it can tell an option's value
/// from a positional word and name a mistyped option; `CommandDefinition` writes them into the synopsis.
struct CommandOption: Sendable, Equatable {
    /// The option as typed, with its dashes: `--keep`.
    let name: String
    /// What the value is called in the synopsis (`N`, `none|latest|all`); nil for a flag.
    let valueName: String?
    /// Accepted but left out of the synopsis (the shelf's `--version`, which has a usage line of its own).
    let isHidden: Bool

    /// A flag: `--json`.
    static func flag(_ name: String, hidden: Bool = false) -> CommandOption {
        CommandOption(name: name, valueName: nil, isHidden: hidden)
    }

    /// An option taking a value, given as `--name VALUE` or `--name=VALUE`.
    static func value(_ name: String, _ valueName: String) -> CommandOption {
        CommandOption(name: name, valueName: valueName, isHidden: false)
    }

    var takesValue: Bool { valueName != nil }

    /// How the synopsis writes it: `--keep N`, `--json`.
    var usage: String { valueName.map { "\(name) \($0)" } ?? name }
}

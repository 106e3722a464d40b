/// One row of `CommandTable`: a command's word, its arguments and options, one line on what it does,
/// and the code that runs it. The row is all there is to a command: dispatch, `--help`, the synopsis
/// and the parser's knowledge of the command's options all come from it.
struct CommandDefinition: Sendable {
    /// The command word; nil for the shelf, which runs when no command word is given.
    let name: String?
    /// The positional part of the synopsis: `URL`, `ISSUE...`, `ISSUE|--file PATH`. An option
    /// this text names (as `--file` above) is not repeated in brackets after it.
    let arguments: String
    /// What a shell completes for the positional arguments.
    let argumentCompletion: ValueCompletion
    /// Run by scripts and the build (`man`, the completion helper), left out of `--help`, the manual and completion.
    let isHidden: Bool
    /// Every option the command reads (besides `--help`/`-h`, which every command takes).
    let options: [CommandOption]
    /// What the command does, in one line (`--help` wraps it to at most two).
    let summary: String
    /// Takes the command's options and arguments from the list (ending with `finish()`) and does the work;
    /// throws `UsageError` for a mistake in the call, `CommandFailure` (or any error) when the work fails.
    let run: @Sendable (inout ArgumentList) throws -> Void

    /// `completes` says what a shell offers for the arguments; by default, what their words name: ISSUE an issue,
    /// PUBLICATION a publication, FILE a file, COMMAND a command, HOST a host with a saved login, anything else nothing.
    init(_ name: String?, arguments: String = "", completes argumentCompletion: ValueCompletion? = nil, hidden: Bool = false,
         options: [CommandOption] = [], summary: String, run: @escaping @Sendable (inout ArgumentList) throws -> Void) {
        self.name = name
        self.arguments = arguments
        self.argumentCompletion = argumentCompletion ?? Self.completion(namedBy: arguments)
        self.isHidden = hidden
        self.options = options
        self.summary = summary
        self.run = run
    }

    /// What a shell offers for arguments written as `words` in the synopsis (`ISSUE...`, `[COMMAND]`).
    static func completion(namedBy words: String) -> ValueCompletion {
        let named = Set(words.split(whereSeparator: { !$0.isLetter }).map(String.init))
        if named.contains("ISSUE") { return .issues }
        if named.contains("PUBLICATION") { return .publications }
        if named.contains("FILE") { return .files }
        if named.contains("COMMAND") { return .commands }
        if named.contains("HOST") { return .hosts }
        return .nothing
    }

    /// The command word, its arguments and its options in brackets:
    /// `subscribe URL [--auto-download none|latest|all] [--keep N]` (for the shelf, just the options).
    var synopsis: String {
        let named = Set(arguments.split(whereSeparator: { $0 == " " || $0 == "|" }).map(String.init))
        let bracketed = options.filter { !$0.isHidden && !named.contains($0.name) }.map { "[\($0.usage)]" }
        return ([name, arguments.isEmpty ? nil : arguments].compactMap { $0 } + bracketed).joined(separator: " ")
    }

    /// How messages name the command: `'list'`, or `the shelf`.
    var displayName: String { name.map { "'\($0)'" } ?? "the shelf" }
}

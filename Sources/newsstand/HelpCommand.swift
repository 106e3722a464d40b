/// `newsstand help [COMMAND]`: prints the whole help, or one command's synopsis and summary.
enum HelpCommand {
    static func run(_ arguments: inout ArgumentList) throws {
        let name = arguments.hasPositional ? try arguments.positional("command") : nil
        try arguments.finish()
        if let name {
            print(HelpText.usage(of: try CommandTable.command(named: name)))
        } else {
            print(HelpText.full)
        }
    }
}

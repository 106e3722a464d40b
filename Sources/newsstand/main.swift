import Foundation
import NewsstandCore

/// The `newsstand` command: finds the command the words call in `CommandTable` (the shelf when there is
/// no command word), parses the rest by that command's options, and runs it, or prints its help.
// A file size limit (ulimit -f) must fail a write with EFBIG, which downloads report as a full disk,
// rather than kill the process.
StartupTrace.mark("main")
signal(SIGXFSZ, SIG_IGN)
do {
    var words = Array(CommandLine.arguments.dropFirst())
    let command = try CommandTable.command(for: &words)
    var arguments = try ArgumentList(words, for: command)
    if arguments.helpRequested {
        print(command.name == nil ? HelpText.full : HelpText.usage(of: command))
        exit(0)
    }
    try command.run(&arguments)
    LibraryContext.closeOpened()
} catch {
    // However the command ended, the libraries it opened are closed first.
    LibraryContext.closeOpened()
    if let usage = error as? UsageError {
        FileHandle.standardError.write(Data("newsstand: \(usage)\nRun `newsstand --help` for usage.\n".utf8))
        exit(2)
    }
    FileHandle.standardError.write(Data("newsstand: \(error)\n".utf8))
    exit(1)
}

import Foundation
import NewsstandCore

/// The `newsstand` command: the shelf when run alone, or one of the subcommands in `HelpText`.
// A file size limit (ulimit -f) must fail a write with EFBIG, which downloads report as a full disk,
// rather than kill the process.
signal(SIGXFSZ, SIG_IGN)
var arguments = ArgumentList(Array(CommandLine.arguments.dropFirst()))
do {
    if arguments.flag("--help") || arguments.flag("-h") {
        print(HelpText.usage)
        exit(0)
    }
    if arguments.flag("--version") {
        print("newsstand \(NewsstandVersion.string)")
        exit(0)
    }
    let command = arguments.words.first.flatMap { $0.hasPrefix("-") ? nil : $0 }
    if command != nil { _ = try arguments.positional("command") }
    switch command {
    case nil: try ShelfCommand.run(&arguments)
    case "list": try ListCommand.run(&arguments)
    case "subscribe": try SubscriptionCommands.subscribe(&arguments)
    case "unsubscribe": try SubscriptionCommands.unsubscribe(&arguments)
    case "download": try DownloadCommand.run(&arguments)
    case "read": try ReadCommand.run(&arguments)
    case "cover": try CoverCommand.run(&arguments)
    case "sync": try SyncCommand.run(&arguments)
    case "subscriptions": try SubscriptionsCommand.run(&arguments)
    case "storage": try StorageCommand.run(&arguments)
    case "import": try OPMLCommands.importFile(&arguments)
    case "export": try OPMLCommands.export(&arguments)
    case "search": try SearchCommand.run(&arguments)
    case "help": print(HelpText.usage)
    case let other?: throw UsageError("unknown command '\(other)'")
    }
} catch let error as UsageError {
    FileHandle.standardError.write(Data("newsstand: \(error)\nRun `newsstand --help` for usage.\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("newsstand: \(error)\n".utf8))
    exit(1)
}

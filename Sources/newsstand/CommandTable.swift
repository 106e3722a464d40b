import NewsstandCore
import NewsstandImaging

/// The one table of commands: it drives the dispatch in main.swift, the USAGE part of `--help`, each
/// command's own help (`help COMMAND`, `COMMAND --help`), and what `ArgumentList` knows of each
/// command's options. A command is added by adding its row here.
enum CommandTable {
    /// No command word: the shelf (or `--version`).
    static let shelf = CommandDefinition(
        nil, options: [.value("--theme", "NAME", completes: .themes), .choice("--cover-mode", "MODE", CoverModeSetting.allCases.map(\.rawValue)), .flag("--screen-reader"), .flag("--demo"), .flag("--version", hidden: true)],
        summary: "open the shelf (keys: press ? inside)"
    ) { arguments in
        if arguments.flag("--version") {
            print("newsstand \(NewsstandVersion.string) (commit \(BuildCommit.hash))")
            return
        }
        try ShelfCommand.run(&arguments)
    }

    /// The commands named by a word, in the order `--help` lists them.
    static let commands: [CommandDefinition] = [
        CommandDefinition("subscribe", arguments: "URL", completes: .files,
                          options: [.choice("--auto-download", AutoDownloadPolicy.allCases.map(\.rawValue)), .value("--keep", "N"),
                                    .choice("--full-text", FullTextMode.allCases.map(\.rawValue)), .value("--account", "SERVER-URL"), .flag("--no-account"),
                                    .flag("--local", hidden: true)],
                          summary: "subscribe to a publication's catalog (http, https, file or a path)",
                          run: { try SubscriptionCommands.subscribe(&$0) }),
        CommandDefinition("unsubscribe", arguments: "PUBLICATION", options: [.flag("--keep-downloads")],
                          summary: "remove a publication (and its downloaded issues, unless kept)",
                          run: { try SubscriptionCommands.unsubscribe(&$0) }),
        CommandDefinition("subscriptions", options: [.flag("--json")],
                          summary: "each subscription: policy, last refresh, new/downloaded/all counts",
                          run: { try SubscriptionsCommand.run(&$0) }),
        CommandDefinition("catalog", arguments: "URL", options: [.value("--search", "TEXT"), .flag("--json")],
                          summary: "print a page of an OPDS catalog (or a search): entries, formats",
                          run: { try CatalogCommand.run(&$0) }),
        CommandDefinition("login", arguments: "URL", options: [.value("--user", "NAME"), .flag("--password-stdin"), .flag("--register")],
                          summary: "save a login for a server; --register makes a progress sync account first",
                          run: { try LoginCommands.login(&$0) }),
        CommandDefinition("logout", arguments: "HOST",
                          summary: "forget the logins saved for a host (HOST:PORT for one port)",
                          run: { try LoginCommands.logout(&$0) }),
        CommandDefinition("logins",
                          summary: "list the saved logins: host and user, never the password",
                          run: { try LoginCommands.logins(&$0) }),
        CommandDefinition("account", arguments: "add URL|list|remove URL", completes: .choices(AccountCommands.actions),
                          options: [.value("--user", "NAME"), .flag("--password-stdin"), .flag("--json")],
                          summary: "share subscriptions and read states with a feed server (FreshRSS…)",
                          run: { try AccountCommands.run(&$0) }),
        CommandDefinition("sync", options: [.flag("--quiet")],
                          summary: "refresh every subscription, download per policy, keep to limits, sync places",
                          run: { try SyncCommand.run(&$0) }),
        CommandDefinition("storage", options: [.flag("--evict")],
                          summary: "space used per publication and what the budget would remove",
                          run: { try StorageCommand.run(&$0) }),
        CommandDefinition("import", arguments: "FILE",
                          summary: "subscribe to every feed in an OPML file (newsboat's export works)",
                          run: { try OPMLCommands.importFile(&$0) }),
        CommandDefinition("export",
                          summary: "print the subscriptions as OPML (newsboat can import it)",
                          run: { try OPMLCommands.export(&$0) }),
        CommandDefinition("list", options: [.flag("--json")],
                          summary: "list every issue and its state",
                          run: { try ListCommand.run(&$0) }),
        CommandDefinition("headlines", arguments: "PUBLICATION", options: [.flag("--json")],
                          summary: "list a feed's headlines by name (PUB/headline-N), NEW, read, starred",
                          run: { try HeadlinesCommand.run(&$0) }),
        CommandDefinition("mark", arguments: "ISSUE|HEADLINE...", options: [.flag("--read"), .flag("--unread"), .flag("--star"), .flag("--unstar")],
                          summary: "mark issues or headlines read, unread, starred or not (on their server too)",
                          run: { try MarkCommand.run(&$0) }),
        CommandDefinition("download", arguments: "ISSUE...",
                          summary: "download issues now, continuing partial downloads (progress on stderr)",
                          run: { try DownloadCommand.run(&$0) }),
        CommandDefinition("read", arguments: "ISSUE", options: [.flag("--plain"), .flag("--toc"), .value("--article", "N"), .value("--width", "N")],
                          summary: "print an issue's text, one article with --article, or its contents with --toc",
                          run: { try ReadCommand.run(&$0) }),
        CommandDefinition("search", arguments: "TEXT...", options: [.value("--limit", "N")],
                          summary: "find words in issues and headlines: issue, article, snippet per match",
                          run: { try SearchCommand.run(&$0) }),
        CommandDefinition("position", arguments: "ISSUE", options: [.flag("--json")],
                          summary: "where you are in an issue, and the progress sync server's place for it",
                          run: { try ProgressSyncCommands.position(&$0) }),
        CommandDefinition("article", arguments: "URL|FILE", options: [.value("--base", "URL"), .choice("--format", ArticleCommand.Format.allCases.map(\.rawValue))],
                          summary: "print the article of a web page (a reader view), fetched or saved",
                          run: { try ArticleCommand.run(&$0) }),
        CommandDefinition("notes", arguments: "ISSUE|--all",
                          options: [.flag("--all"), .choice("--format", NotesCommand.formatNames), .value("--import", "FILE", completes: .files)],
                          summary: "print an issue's highlights and notes; --import reads them from another reader",
                          run: { try NotesCommand.run(&$0) }),
        CommandDefinition("cover", arguments: "ISSUE|--file PATH",
                          options: [.value("--file", "PATH", completes: .files), .value("--width", "N"), .value("--height", "N"),
                                    .choice("--mode", CoverArtMode.allCases.map(\.rawValue)), .flag("--light")],
                          summary: "print a cover as text art",
                          run: { try CoverCommand.run(&$0) }),
        CommandDefinition("keys",
                          summary: "print the keys in effect (with the config's bind lines) and their commands",
                          run: { try KeysCommand.run(&$0) }),
        CommandDefinition("help", arguments: "[COMMAND]",
                          summary: "print this help, or one command's synopsis and summary",
                          run: { try HelpCommand.run(&$0) }),
        CommandDefinition("completion", arguments: CompletionScript.Shell.allCases.map(\.rawValue).joined(separator: "|"),
                          completes: .choices(CompletionScript.Shell.allCases.map(\.rawValue)),
                          summary: "print the shell's completion script (make install puts it in place)",
                          run: { try CompletionScript.run(&$0) }),
        CommandDefinition("man", hidden: true,
                          summary: "print the manual page, newsstand(1), as roff (make install writes it)",
                          run: { try ManualPage.run(&$0) }),
        CommandDefinition(CompletionNames.commandName, arguments: "KIND PREFIX", hidden: true,
                          summary: "print the issue, publication or theme names starting with PREFIX, for completion",
                          run: { try CompletionNames.run(&$0) }),
    ]

    /// Every row as `--help` lists them: the shelf first.
    static var all: [CommandDefinition] { [shelf] + commands }

    /// The rows users see (in `--help`, the manual and completion): all but the hidden ones.
    static var documented: [CommandDefinition] { all.filter { !$0.isHidden } }

    /// The command called `name`; an unknown name is a usage error suggesting the nearest command.
    static func command(named name: String) throws -> CommandDefinition {
        if let command = commands.first(where: { $0.name == name }) { return command }
        let names = commands.filter { !$0.isHidden }.compactMap(\.name)
        let hint = SpellingSuggestion.nearest(to: name, among: names).map { "did you mean \($0)?" }
            ?? "the commands are " + names.joined(separator: ", ")
        throw UsageError("unknown command '\(name)' (\(hint))")
    }

    /// The command a command line calls: its first word when that is not an option (taken off `words`),
    /// else the shelf.
    static func command(for words: inout [String]) throws -> CommandDefinition {
        guard let first = words.first, !first.hasPrefix("-") else { return shelf }
        words.removeFirst()
        return try command(named: first)
    }
}

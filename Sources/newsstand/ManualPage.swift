import Foundation
import NewsstandCore
import NewsstandUI

/// `newsstand man`: the manual page newsstand(1) in roff (man(7) macros), written from the tables the program
/// runs on, so it cannot drift from it: SYNOPSIS and COMMANDS from `CommandTable`, OPTIONS, FILES and
/// ENVIRONMENT from `HelpText`'s tables, KEYS from the key table (`KeyTable.standard`, by `HelpScreen`'s
/// sections), CONFIGURATION from `Configuration`'s settings. `make install` writes it to MANDIR/man1.
enum ManualPage {
    static func run(_ arguments: inout ArgumentList) throws {
        try arguments.finish()
        print(page(date: date(ProcessInfo.processInfo.environment)), terminator: "")
    }

    /// The page's date: `SOURCE_DATE_EPOCH` when set (reproducible builds), else today, as YYYY-MM-DD.
    static func date(_ environment: [String: String]) -> String {
        let seconds = environment["SOURCE_DATE_EPOCH"].flatMap(TimeInterval.init) ?? Date().timeIntervalSince1970
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    static func page(date: String) -> String {
        var lines = [
            #".\" newsstand(1), written by `newsstand man` from the program's own tables; do not edit."#,
            ".TH NEWSSTAND 1 \(date) \"Newsstand \(escape(NewsstandVersion.string))\" \"User Commands\"",
            ".SH NAME",
            "newsstand \\- " + escape(HelpText.title.components(separatedBy: " — ").dropFirst().joined(separator: " — ").trimmingCharacters(in: CharacterSet(charactersIn: "."))),
            ".SH SYNOPSIS",
        ]
        lines += CommandTable.documented.enumerated().flatMap { index, command in
            (index == 0 ? [] : [".br"]) + [synopsis(of: command)]
        }
        lines += [".br", "\\fBnewsstand\\fR \\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR"]

        lines += [".SH DESCRIPTION"]
        lines += paragraph("""
            Newsstand keeps a shelf of magazine issues from the catalogs and feeds you subscribe to (OPDS 1 and 2, RSS, Atom, \
            or a property-list catalog), downloads them in the background and reads them in the terminal: EPUB, PDF, \
            comic books and feed articles, with covers drawn as pictures or text art. Run without a command, it opens \
            the shelf; press ? there for the keys. The commands below do the same work from scripts.
            """)
        lines += [".PP"] + paragraph(HelpText.issueNote.replacingOccurrences(of: "\n", with: " "))

        lines += [".SH OPTIONS"]
        for entry in HelpText.options {
            lines += [".TP", term(entry.term)] + paragraph(entry.text)
        }
        lines += [".TP", term("--help"), "Print the commands and their options; with a command, that command's.",
                  ".TP", term("--version"), "Print the version and the commit it was built from."]

        lines += [".SH COMMANDS"]
        for command in CommandTable.documented.dropFirst() {
            lines += [".TP", synopsis(of: command)] + paragraph(sentence(command.summary))
        }
        lines += [".PP"] + paragraph("""
            Every command takes --help. Options go anywhere after the command word, as --name VALUE or --name=VALUE; \
            -- ends them, so every word after it is an argument.
            """)

        lines += [".SH KEYS"]
        lines += paragraph("""
            The keys of the shelf and the screens it opens, as the program has them before the config changes any \
            (newsstand keys prints those in effect). Each key's command name, in parentheses, is what a bind line takes.
            """)
        for (title, screen) in HelpScreen.sections {
            let bindings = KeyTable.standard.documented(on: screen)
            guard !bindings.isEmpty else { continue }
            lines += [".SS \(escape(title))"]
            for binding in bindings {
                lines += [".TP", "\\fB\(escape(HelpScreen.keyLabel(binding)))\\fR (\(escape(binding.command.name)))"] + paragraph(sentence(binding.help))
            }
        }

        lines += [".SH CONFIGURATION"]
        lines += paragraph("""
            The config file, $XDG_CONFIG_HOME/newsstand/config (~/.config/newsstand/config), holds one setting a line, \
            a name and its value; # starts a comment. A line the program cannot use is reported with its line number, \
            and the rest still applies. The settings:
            """)
        for setting in Configuration.settingDescriptions {
            let what = setting.what.isEmpty ? "" : sentence(setting.what) + " "
            lines += [".TP", "\\fB\(escape(setting.name))\\fR"] + paragraph(what + "Takes " + setting.takes + ".")
        }
        lines += [".TP", "\\fBbind\\fR \\fIKEY COMMAND\\fR [\\fISCREEN\\fR ...]"]
        lines += paragraph("Gives a key a command (the names under KEYS), on the screens named or on every screen the command works on.")
        lines += [".TP", "\\fBunbind\\fR \\fIKEY\\fR [\\fISCREEN\\fR ...]"]
        lines += paragraph("Takes a key's command away, on the screens named or everywhere.")

        lines += [".SH FILES"]
        for entry in HelpText.files {
            lines += [".TP", term(entry.term)] + paragraph(entry.text)
        }
        lines += [".SH ENVIRONMENT"]
        for entry in HelpText.environment {
            lines += [".TP", term(entry.term)] + paragraph(entry.text)
        }
        lines += [".TP", term("XDG_DATA_HOME, XDG_CONFIG_HOME, XDG_CACHE_HOME"), "Where the places under FILES are."]

        lines += [".SH EXIT STATUS",
                  ".TP", "0", "The command did what it was asked.",
                  ".TP", "1", "The work failed (a download, a file, the network); the message says why.",
                  ".TP", "2", "The command line was wrong (an unknown command or option, a missing argument)."]

        lines += [".SH EXAMPLES"]
        for (index, (text, example)) in examples.enumerated() {
            lines += (index == 0 ? [] : [".PP"]) + paragraph(text) + [".PP", ".EX", escape(example), ".EE"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Commands worth showing, each with a line on what it does.
    static let examples: [(String, String)] = [
        ("Open the shelf with the paper theme:", "newsstand --theme paper"),
        ("Subscribe to a feed, downloading its newest issue as it arrives and keeping the last three:",
         "newsstand subscribe https://example.com/feed.xml --auto-download latest --keep 3"),
        ("Refresh every subscription from cron or a systemd timer:", "newsstand sync --quiet"),
        ("Download an issue and print its second article as plain text:",
         "newsstand download kettle-compass/2026-autumn\nnewsstand read kettle-compass/2026-autumn --article 2 --plain"),
        ("Load completion into a running bash (make install puts the scripts in place for bash, zsh and fish):",
         "source <(newsstand completion bash)"),
    ]

    /// A synopsis in roff: words in bold, the placeholders (upper case) in italics, brackets and bars as they are.
    static func synopsis(of command: CommandDefinition) -> String {
        var text = "\\fBnewsstand\\fR"
        for part in command.synopsis.split(separator: " ") {
            text += " " + formattedSynopsisWord(String(part), isCommandWord: command.name == String(part))
        }
        return text
    }

    private static func formattedSynopsisWord(_ word: String, isCommandWord: Bool) -> String {
        if isCommandWord { return "\\fB\(escape(word))\\fR" }
        var text = ""
        var token = ""
        func flush() {
            guard !token.isEmpty else { return }
            var core = token
            var trailer = ""
            if core.hasSuffix("...") {
                core.removeLast(3)
                trailer = "..."
            }
            let isPlaceholder = core.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" } && !core.hasPrefix("-")
            text += (isPlaceholder ? "\\fI" : "\\fB") + escape(core) + "\\fR" + trailer
            token = ""
        }
        for character in word {
            if "[]|".contains(character) {
                flush()
                text.append(character)
            } else {
                token.append(character)
            }
        }
        flush()
        return text
    }

    /// An option or place as a `.TP` term: in bold, its placeholder (after a space) in italics.
    private static func term(_ text: String) -> String {
        let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, parts[1].allSatisfy({ $0.isUppercase }) else { return "\\fB\(escape(text))\\fR" }
        return "\\fB\(escape(parts[0]))\\fR \\fI\(escape(parts[1]))\\fR"
    }

    /// A one-line summary as a sentence: a capital first, a full stop last.
    private static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        let capitalised = first.uppercased() + text.dropFirst()
        return capitalised.hasSuffix(".") ? capitalised : capitalised + "."
    }

    /// The longest roff text line written, in bytes (mandoc's style check asks for at most 80).
    static let lineLimit = 78

    /// Text as filled roff lines: escaped, each sentence on a new line (as man pages are written), lines broken
    /// between words to at most `lineLimit` bytes, no empty lines.
    static func paragraph(_ text: String) -> [String] {
        var lines: [String] = []
        var current = ""
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        for (index, word) in words.enumerated() {
            if !current.isEmpty, escape(current + " " + word).utf8.count > lineLimit {
                lines.append(escape(current))
                current = ""
            }
            current += current.isEmpty ? word : " " + word
            let endsSentence = (word.hasSuffix(".") || word.hasSuffix(":") || word.hasSuffix("?")) && index + 1 < words.count
                && words[index + 1].first.map { $0.isUppercase } == true
            if endsSentence {
                lines.append(escape(current))
                current = ""
            }
        }
        if !current.isEmpty { lines.append(escape(current)) }
        return lines
    }

    /// `text` (one or more lines) safe as roff text lines: backslashes as `\e`, hyphens as `\-`, characters beyond
    /// ASCII as `\[uXXXX]`, and a line starting with `.` or `'` (which roff would read as a request) behind `\&`.
    static func escape(_ text: String) -> String {
        text.components(separatedBy: "\n").map { line in
            var escaped = ""
            for scalar in line.unicodeScalars {
                switch scalar {
                case "\\": escaped += "\\e"
                case "-": escaped += "\\-"
                case _ where scalar.isASCII && (scalar.value >= 0x20 && scalar.value != 0x7F): escaped.unicodeScalars.append(scalar)
                case _ where scalar.isASCII: continue
                default: escaped += "\\[u" + String(format: "%04X", scalar.value) + "]"
                }
            }
            if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
            return escaped
        }.joined(separator: "\n")
    }
}

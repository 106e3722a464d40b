import NewsstandImaging

/// The text `newsstand --help` prints, and one command's help: the USAGE rows are written from
/// `CommandTable` (synopsis, then summary at a fixed column); the rest from the tables below.
enum HelpText {
    /// Lines are kept to this many columns (a synopsis longer than that wraps between its parts).
    static let width = 80
    /// Where summaries start: beside a short synopsis, else on the lines below it.
    static let summaryColumn = 41

    static let title = "newsstand — a terminal newsstand: a shelf of magazine issues to download and read."

    static let issueNote = """
        ISSUE is an issue's name as `newsstand list` prints it (PUBLICATION/NAME), or
        NAME alone when no other publication has one like it; its catalog id works too.
        """

    /// A term and what it means: a row of the OPTIONS, FILES and ENVIRONMENT parts, which `--help` and the
    /// manual page (`ManualPage`) both write from these tables.
    struct Entry {
        let term: String
        let text: String

        init(_ term: String, _ text: String) {
            self.term = term
            self.text = text
        }
    }

    /// The shelf's options (the commands' own are in their synopses).
    static let options = [
        Entry("--theme NAME", "a theme from Themes/ or ~/.config/newsstand/themes (dark, paper, mono), or auto (the default): paper on a light terminal, else dark"),
        Entry("--cover-mode MODE", "\(CoverModeSetting.spelledOut) (default: auto, from the terminal's answers)"),
        Entry("--screen-reader", "for screen readers: the cursor on the selected row, no decoration, changes said in words"),
        Entry("--demo", "serve the sample library over HTTP on 127.0.0.1, throttled, in a throwaway library"),
    ]

    /// Where the program keeps things (the XDG base directories).
    static let files = [
        Entry("$XDG_DATA_HOME/newsstand", "library database, downloaded issues (~/.local/share/newsstand) and saved logins (credentials, mode 0600)"),
        Entry("$XDG_CONFIG_HOME/newsstand", "config file and user themes (~/.config/newsstand)"),
        Entry("$XDG_CACHE_HOME/newsstand", "cover images, the shelf kept for the next start (~/.cache/newsstand)"),
        Entry("PREFIX/share/newsstand", "the bundled Themes/ and SampleLibrary/, found from where the program is (PREFIX/bin)"),
    ]

    /// The environment variables the program reads.
    static let environment = [
        Entry("NO_COLOR", "no colours, structure by bold and reverse video"),
        Entry("NEWSSTAND_SAMPLE_LIBRARY", "where the bundled sample library is (else found from the program's own path)"),
        Entry("NEWSSTAND_THEMES", "where the bundled themes are (else found from the program's own path)"),
    ]

    /// Everything after the USAGE rows.
    static var reference: String {
        [("OPTIONS", options), ("FILES", files), ("ENVIRONMENT", environment)]
            .map { title, entries in ([title] + table(entries)).joined(separator: "\n") }
            .joined(separator: "\n\n")
    }

    /// Entries as rows: the term, then its text from a column shared by the table, wrapped to `width`.
    static func table(_ entries: [Entry]) -> [String] {
        let column = 2 + (entries.map(\.term.count).max() ?? 0) + 3
        let indent = String(repeating: " ", count: column)
        var rows: [String] = []
        for entry in entries {
            let lead = "  " + entry.term
            for (index, line) in wrap(entry.text, width: width - column).enumerated() {
                rows.append(index == 0 ? lead + String(repeating: " ", count: column - lead.count) + line : indent + line)
            }
        }
        return rows
    }

    /// The whole help: `newsstand --help`, `newsstand help`.
    static var full: String {
        ([title, "", "USAGE"] + usageLines + ["", issueNote, "", reference]).joined(separator: "\n")
    }

    /// The USAGE rows: every command of the table, then the program's own options.
    static var usageLines: [String] {
        CommandTable.documented.flatMap(rows(for:)) + ["  newsstand --help | --version"]
    }

    /// One command's help: `newsstand help COMMAND`, `newsstand COMMAND --help`.
    static func usage(of command: CommandDefinition) -> String {
        let mentionsIssue = command.arguments.split(whereSeparator: { !$0.isLetter }).contains("ISSUE")
        return (["USAGE"] + rows(for: command) + (mentionsIssue ? ["", issueNote] : [])).joined(separator: "\n")
    }

    /// A command's row: `  newsstand SYNOPSIS`, wrapped between its parts, and the summary at `summaryColumn`
    /// (beside the synopsis when it fits, else below it), wrapped to at most two lines.
    static func rows(for command: CommandDefinition) -> [String] {
        let lead = "  newsstand "
        let continuation = String(repeating: " ", count: lead.count + (command.name.map { $0.count + 1 } ?? 0))
        var synopsis: [String] = []
        for part in parts(of: command.synopsis) {
            if let last = synopsis.last, last.count + 1 + part.count <= width {
                synopsis[synopsis.count - 1] = last + " " + part
            } else {
                synopsis.append((synopsis.isEmpty ? lead : continuation) + part)
            }
        }
        let summary = wrap(command.summary, width: width - summaryColumn)
        assert(summary.count <= 2, "the summary of \(command.displayName) takes more than two lines in --help: \(command.summary)")
        let indent = String(repeating: " ", count: summaryColumn)
        if synopsis.count == 1, synopsis[0].count <= summaryColumn - 2, let first = summary.first {
            return [synopsis[0] + String(repeating: " ", count: summaryColumn - synopsis[0].count) + first] + summary.dropFirst().map { indent + $0 }
        }
        return synopsis + summary.map { indent + $0 }
    }

    /// A synopsis split at the spaces outside brackets: `read`, `ISSUE`, `[--article N]`.
    static func parts(of synopsis: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        for character in synopsis {
            if character == "[" { depth += 1 }
            if character == "]" { depth -= 1 }
            if character == " " && depth == 0 {
                if !current.isEmpty { parts.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }

    /// `text` in lines of at most `width` characters, broken at spaces (a longer word gets a line of its own).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        for word in text.split(separator: " ") {
            if let last = lines.last, last.count + 1 + word.count <= width {
                lines[lines.count - 1] = last + " " + word
            } else {
                lines.append(String(word))
            }
        }
        return lines
    }
}

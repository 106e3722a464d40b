import Foundation

/// `newsstand completion bash|zsh|fish`: the shell's completion script, written from `CommandTable`: the
/// command words (with their summaries where the shell shows them), each command's options and what their values
/// take (the choices of the enum that defines them, file names, themes), and its arguments (file names, or issue,
/// publication and theme names that the script asks `newsstand __names` for at each Tab, from the library).
enum CompletionScript {
    enum Shell: String, CaseIterable {
        case bash, zsh, fish
    }

    static func run(_ arguments: inout ArgumentList) throws {
        let name = try arguments.positional("shell (\(Shell.allCases.map(\.rawValue).joined(separator: ", ")))")
        try arguments.finish()
        guard let shell = Shell(rawValue: name) else {
            throw UsageError("completion is written for \(Shell.allCases.map(\.rawValue).joined(separator: ", ")), not '\(name)'")
        }
        print(script(for: shell), terminator: "")
    }

    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        case .fish: fish
        }
    }

    /// The commands completed: the documented rows, the shelf's first; every one also takes `--help`.
    private static var commands: [CommandDefinition] { CommandTable.documented }
    private static var commandWords: [String] { commands.compactMap(\.name) }
    private static let helpOption = CommandOption.flag("--help")

    /// A command's options as completed: its own (the shelf's `--version` too), then `--help`.
    private static func options(of command: CommandDefinition) -> [CommandOption] {
        command.options + [helpOption]
    }

    /// How `--help` describes a shelf option (commands' options have no text of their own: their synopsis says it).
    private static func description(of option: CommandOption, in command: CommandDefinition) -> String? {
        guard command.name == nil else { return nil }
        if option.name == "--version" { return "print the version and the commit it was built from" }
        return HelpText.options.first { $0.term.split(separator: " ").first.map(String.init) == option.name }?.text
    }

    // MARK: bash

    static var bash: String {
        var cases: [String] = []
        for command in commands {
            var lines = ["        \(command.name ?? "\"\""))"]
            let valued = options(of: command).filter(\.takesValue)
            if !valued.isEmpty {
                lines.append("            case $prev in")
                for option in valued {
                    lines.append("                \(option.name)) \(bashReply(option.completion)); return ;;")
                }
                lines.append("            esac")
            }
            lines.append("            options=\"\(options(of: command).map(\.name).joined(separator: " "))\"")
            let argument = command.name == nil ? ValueCompletion.commands : command.argumentCompletion
            // `ISSUE...` takes any number of words; any other argument one, so none is offered once it is there.
            let taken = command.name == nil || command.arguments.contains("...") ? ""
                : "(( $(_newsstand_arguments \"\(valued.map(\.name).joined(separator: " "))\") > 0 )) || "
            lines.append("            [[ $cur == -* ]] || \(taken){ \(bashReply(argument)); }")
            lines.append("            ;;")
            cases.append(lines.joined(separator: "\n"))
        }
        let shelfValued = CommandTable.shelf.options.filter(\.takesValue).map(\.name).joined(separator: "|")
        return """
            # bash completion for newsstand, written by `newsstand completion bash` from its command table.
            # `make install` puts it where bash-completion finds it; or load it with: source <(newsstand completion bash)

            # The names `newsstand __names KIND` finds in the library (or themes) for the word being completed.
            _newsstand_names() {
                local program=${COMP_WORDS[0]/#\\~/$HOME}
                "$program" __names "$1" -- "$cur" 2>/dev/null
            }

            # How many arguments stand between the command word (at $at) and the word being completed: words that are
            # neither options nor an option's value ($1: the command's options that take a value).
            _newsstand_arguments() {
                local valued=" $1 " count=0 j
                for ((j = at + 1; j < COMP_CWORD; j++)); do
                    case ${COMP_WORDS[j]} in
                        =) ((j++)) ;;
                        -*) [[ $valued == *" ${COMP_WORDS[j]} "* && ${COMP_WORDS[j+1]} != = ]] && ((j++)) ;;
                        *) ((count++)) ;;
                    esac
                done
                echo "$count"
            }

            _newsstand() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command= options= word i at=0
                # --name=VALUE arrives as three words: --name, =, VALUE.
                if [[ $cur == = ]]; then
                    cur=
                elif [[ $prev == = ]]; then
                    prev=${COMP_WORDS[COMP_CWORD-2]}
                fi
                # The command word: the first word that is neither an option nor the value of one of the shelf's.
                for ((i = 1; i < COMP_CWORD; i++)); do
                    word=${COMP_WORDS[i]}
                    case $word in
                        \(shelfValued)) ((i++)); [[ ${COMP_WORDS[i]} == = ]] && ((i++)) ;;
                        -*|=) ;;
                        *) command=$word; at=$i; break ;;
                    esac
                done
                COMPREPLY=()
                case $command in
            \(cases.joined(separator: "\n"))
                    *) return ;;
                esac
                if [[ $cur == -* ]]; then
                    mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
                fi
                # A publication offered as PUBLICATION/ is the start of an issue's name: no space after it.
                if [[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == */ ]]; then
                    compopt -o nospace 2>/dev/null
                fi
            }
            complete -F _newsstand newsstand

            """
    }

    /// The bash line that fills COMPREPLY for a value of this kind (nothing offered: an empty line, `:`).
    private static func bashReply(_ completion: ValueCompletion) -> String {
        switch completion {
        case .nothing: ":"
        case .choices(let words): "mapfile -t COMPREPLY < <(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")"
        case .files: "compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")"
        case .commands: "mapfile -t COMPREPLY < <(compgen -W \"\(commandWords.joined(separator: " "))\" -- \"$cur\")"
        case .issues, .publications, .themes, .hosts: "mapfile -t COMPREPLY < <(compgen -W \"$(_newsstand_names \(completion.namesKind!))\" -- \"$cur\")"
        }
    }

    // MARK: zsh

    static var zsh: String {
        let described = commands.compactMap { command in command.name.map { "    \(zshQuote("\($0):\(command.summary)"))" } }
        var argumentCases: [String] = []
        for command in commands.dropFirst() {
            guard let name = command.name else { continue }
            var specs = options(of: command).map { zshSpec($0, in: command) }
            if command.argumentCompletion != .nothing {
                let message = command.arguments.replacingOccurrences(of: ":", with: "\\:")
                // `ISSUE...` takes any number of words; any other argument, one.
                let position = command.arguments.contains("...") ? "*" : "1"
                specs.append(zshQuote("\(position):\(message):\(zshAction(command.argumentCompletion))"))
            }
            argumentCases.append("        \(name)) _arguments \\\n            " + specs.joined(separator: " \\\n            ") + " ;;")
        }
        let shelfSpecs = options(of: CommandTable.shelf).map { zshSpec($0, in: CommandTable.shelf) }
        return """
            #compdef newsstand
            # zsh completion for newsstand, written by `newsstand completion zsh` from its command table.
            # `make install` puts it in site-functions as _newsstand; or load it with: source <(newsstand completion zsh)

            # The names `newsstand __names KIND` finds in the library (or themes) for the word being completed.
            # KIND comes last: _arguments puts its compadd options (group, explanation) before it.
            _newsstand_names() {
              local kind=$argv[-1]
              argv[-1]=()
              local -a names partial
              names=(${(f)"$($_newsstand_program __names $kind -- $PREFIX 2>/dev/null)"})
              partial=(${(M)names:#*/})
              names=(${names:#*/})
              compadd "$@" -- $names
              # A publication offered as PUBLICATION/ is the start of an issue's name: no space after it.
              (( $#partial )) && compadd "$@" -S '' -- $partial
            }

            _newsstand() {
              local _newsstand_program=$words[1] curcontext=$curcontext state line ret=1
              local -a commands
              commands=(
            \(described.joined(separator: "\n"))
              )
              _arguments -C \\
                \(shelfSpecs.joined(separator: " \\\n    ")) \\
                '1: :->command' \\
                '*:: :->argument' && return 0
              case $state in
                command) _describe -t commands 'newsstand command' commands && ret=0 ;;
                argument)
                  curcontext=${curcontext%:*:*}:newsstand-$words[1]:
                  case $words[1] in
            \(argumentCases.joined(separator: "\n"))
                  esac && ret=0 ;;
              esac
              return ret
            }

            if [[ $funcstack[1] == _newsstand ]]; then
              _newsstand "$@"
            else
              compdef _newsstand newsstand
            fi

            """
    }

    /// An option as `_arguments` takes it: `--json`, `--keep=:N: ` (value in the next word or after `=`), with
    /// the shelf's descriptions in brackets.
    private static func zshSpec(_ option: CommandOption, in command: CommandDefinition) -> String {
        let text = description(of: option, in: command).map { "[" + $0.replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]") + "]" } ?? ""
        if option.name == "--help" { return "'(- *)'{-h,--help}'[print the help]'" }
        guard let valueName = option.valueName else { return zshQuote(option.name + text) }
        return zshQuote("\(option.name)=\(text):\(valueName.replacingOccurrences(of: ":", with: "\\:")):\(zshAction(option.completion))")
    }

    /// What `_arguments` runs to offer a value of this kind (a single space: nothing, but the message shown).
    private static func zshAction(_ completion: ValueCompletion) -> String {
        switch completion {
        case .nothing: " "
        case .choices(let words): "(\(words.joined(separator: " ")))"
        case .files: "_files"
        case .commands: "(\(commandWords.joined(separator: " ")))"
        case .issues, .publications, .themes, .hosts: "_newsstand_names \(completion.namesKind!)"
        }
    }

    /// `text` in single quotes for zsh (a quote inside closes, escapes and reopens).
    private static func zshQuote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: fish

    static var fish: String {
        var lines: [String] = []
        for command in commands {
            let condition = command.name.map { "'__fish_seen_subcommand_from \($0)'" } ?? "__fish_use_subcommand"
            if let name = command.name {
                lines.append("complete -c newsstand -n __fish_use_subcommand -a \(name) -d \(fishQuote(command.summary))")
            }
            for option in command.options {
                var line = "complete -c newsstand -n \(condition) -l \(option.name.dropFirst(2))"
                switch option.completion {
                case .nothing: if option.takesValue { line += " -x" }
                case .choices(let words): line += " -x -a \(fishQuote(words.joined(separator: " ")))"
                case .files: line += " -r -F"
                case .commands: line += " -x -a \(fishQuote(commandWords.joined(separator: " ")))"
                case .issues, .publications, .themes, .hosts: line += " -x -a \(fishQuote("(__newsstand_names \(option.completion.namesKind!))"))"
                }
                if let text = description(of: option, in: command) { line += " -d \(fishQuote(text))" }
                lines.append(line)
            }
            guard let name = command.name else { continue }
            // `ISSUE...` takes any number of words; any other argument one, so none is offered once it is there.
            let valued = command.options.filter(\.takesValue).map(\.name)
            let argumentCondition = command.arguments.contains("...") ? condition
                : fishQuote((["__fish_seen_subcommand_from \(name); and __newsstand_no_argument_yet"] + valued).joined(separator: " "))
            switch command.argumentCompletion {
            case .nothing: break
            case .choices(let words): lines.append("complete -c newsstand -n \(argumentCondition) -a \(fishQuote(words.joined(separator: " ")))")
            case .files: lines.append("complete -c newsstand -n \(argumentCondition) -F")
            case .commands: lines.append("complete -c newsstand -n \(argumentCondition) -a \(fishQuote(commandWords.joined(separator: " ")))")
            case .issues, .publications, .themes, .hosts:
                lines.append("complete -c newsstand -n \(argumentCondition) -a \(fishQuote("(__newsstand_names \(command.argumentCompletion.namesKind!))"))")
            }
        }
        return """
            # fish completion for newsstand, written by `newsstand completion fish` from its command table.
            # `make install` puts it in vendor_completions.d; or load it with: newsstand completion fish | source

            # The names `newsstand __names KIND` finds in the library (or themes) for the word being completed.
            function __newsstand_names
                set -l program (commandline -opc)[1]
                $program __names $argv[1] -- (commandline -ct) 2>/dev/null
            end

            # True while no argument follows the command word: no word that is neither an option nor the value of
            # one of the options named (the command's options that take a value).
            function __newsstand_no_argument_yet
                set -l words (commandline -opc)
                set -l command_seen 0
                set -l skip 0
                for word in $words[2..-1]
                    if test $skip = 1
                        set skip 0
                        continue
                    end
                    switch $word
                        case '-*'
                            contains -- $word $argv; and set skip 1
                        case '*'
                            test $command_seen = 1; and return 1
                            set command_seen 1
                    end
                end
                return 0
            end

            complete -c newsstand -f
            complete -c newsstand -s h -l help -d 'print the help'
            \(lines.joined(separator: "\n"))

            """
    }

    /// `text` in single quotes for fish (backslashes and quotes escaped).
    private static func fishQuote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}

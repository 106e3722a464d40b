import NewsstandCore

/// The key table in effect: `KeyMap`'s rows with the config's `bind` and `unbind` lines applied. Key handling,
/// the status line hints, the help screen and `newsstand keys` all read this one value.
public struct KeyTable: Equatable, Sendable {
    /// The rows, in `KeyMap`'s order; a row the config changed on some of its screens is split in two, side by side.
    /// A row may be left without keys (its command is then unbound there).
    public private(set) var bindings: [KeyBinding]

    /// `KeyMap` as it is, with no lines applied.
    public static let standard = KeyTable(bindings: KeyMap.bindings)

    init(bindings: [KeyBinding]) {
        self.bindings = bindings
    }

    /// The table with `lines` applied in order. Every line that cannot apply is reported, each naming its place:
    /// an unknown key, command or screen, a command that does nothing on a screen named, Ctrl-C (it always
    /// quits), or two `bind` lines giving one key two commands on one screen.
    public init(lines: [KeyBindingLine]) throws(KeyBindingError) {
        var table = KeyTable.standard
        var problems: [String] = []
        var bound: [ScreenKind: [Key: (command: Command, line: Int)]] = [:]
        for line in lines {
            do throws(KeyBindingError) {
                switch line.verb {
                case .bind:
                    let (key, command, screens) = try table.parseBind(line.arguments)
                    for screen in ScreenKind.allCases where screens.contains(screen) {
                        if let earlier = bound[screen]?[key], earlier.command != command {
                            throw KeyBindingError(["\(key.label) is bound to \(earlier.command.name) on the \(screen.name) screen by line \(earlier.line)"])
                        }
                    }
                    for screen in screens { bound[screen, default: [:]][key] = (command, line.line) }
                    table.bind(key, to: command, on: screens)
                case .unbind:
                    let (key, screens) = try Self.parseUnbind(line.arguments)
                    for screen in screens { bound[screen]?[key] = nil }
                    table.unbind(key, on: screens)
                }
            } catch {
                problems += error.messages.map { "\(line.place): \(([line.verb.rawValue] + line.arguments).joined(separator: " ")): \($0)" }
            }
        }
        if !problems.isEmpty { throw KeyBindingError(problems) }
        self = table
    }

    /// The command a key means on a screen, if any. Any mouse click matches the click binding.
    public func command(for key: Key, on screen: ScreenKind) -> Command? {
        let probe: Key = if case .mouseClick = key { .mouseClick(x: 0, y: 0) } else { key }
        return bindings.first { $0.screens.contains(screen) && $0.keys.contains(probe) }?.command
    }

    /// The bindings hinted in the status line of a screen, in table order (those left without keys are not).
    public func hints(for screen: ScreenKind) -> [KeyBinding] {
        bindings.filter { $0.isHinted && $0.screens.contains(screen) && !$0.keys.isEmpty }
    }

    /// How a command's first key on a screen is written, for messages that name it ("unbound" when it has none).
    public func label(of command: Command, on screen: ScreenKind) -> String {
        bindings.first { $0.command == command && $0.screens.contains(screen) && !$0.keys.isEmpty }?.keys.first?.label ?? "unbound"
    }

    /// The rows of a screen that have help, as the help screen and `newsstand keys` list them.
    public func documented(on screen: ScreenKind) -> [KeyBinding] {
        bindings.filter { $0.screens.contains(screen) && !$0.help.isEmpty }
    }

    // MARK: Changing the table

    /// Gives `key` to `command` on `screens`, taking it from whatever it meant there before.
    mutating func bind(_ key: Key, to command: Command, on screens: Set<ScreenKind>) {
        unbind(key, on: screens)
        var remaining = screens
        edit(where: { $0.command == command }, on: { row in
            defer { remaining.subtract(row.screens) }
            return row.screens.intersection(remaining)
        }) { keys in keys.append(key) }
    }

    /// Takes `key` from every row on `screens`.
    mutating func unbind(_ key: Key, on screens: Set<ScreenKind>) {
        edit(where: { $0.keys.contains(key) }, on: { $0.screens.intersection(screens) }) { keys in keys.removeAll { $0 == key } }
    }

    /// Changes the keys of the rows `matching`, on the screens `screensOf` picks for each: a row changed on some of
    /// its screens only is split, the changed part first.
    private mutating func edit(where matching: (KeyBinding) -> Bool, on screensOf: (KeyBinding) -> Set<ScreenKind>,
                               _ change: (inout [Key]) -> Void) {
        var result: [KeyBinding] = []
        for row in bindings {
            let screens = matching(row) ? screensOf(row) : []
            guard !screens.isEmpty else {
                result.append(row)
                continue
            }
            var keys = row.keys
            change(&keys)
            result.append(row.with(keys: keys, screens: screens))
            let others = row.screens.subtracting(screens)
            if !others.isEmpty { result.append(row.with(keys: row.keys, screens: others)) }
        }
        bindings = result
    }

    // MARK: Reading lines

    /// The screens a command has a row on.
    func screens(of command: Command) -> Set<ScreenKind> {
        bindings.filter { $0.command == command }.reduce(into: []) { $0.formUnion($1.screens) }
    }

    private func parseBind(_ words: [String]) throws(KeyBindingError) -> (Key, Command, Set<ScreenKind>) {
        guard words.count >= 2 else { throw KeyBindingError(["write it as bind KEY COMMAND [SCREEN…]"]) }
        let key = try Self.parseKey(words[0])
        guard let command = Command(name: words[1]) else {
            throw KeyBindingError(["unknown command '\(words[1])' (`newsstand keys` lists the commands)"])
        }
        let works = screens(of: command)
        guard !works.isEmpty else { throw KeyBindingError(["\(command.name) is on no screen"]) }
        guard words.count > 2 else { return (key, command, works) }
        let screens = try Self.parseScreens(words.dropFirst(2))
        let idle = ScreenKind.allCases.filter { screens.contains($0) && !works.contains($0) }
        guard idle.isEmpty else {
            let names = ScreenKind.allCases.filter(works.contains).map(\.name).joined(separator: ", ")
            throw KeyBindingError(idle.map { "\(command.name) does nothing on the \($0.name) screen (it works on: \(names))" })
        }
        return (key, command, screens)
    }

    private static func parseUnbind(_ words: [String]) throws(KeyBindingError) -> (Key, Set<ScreenKind>) {
        guard let first = words.first else { throw KeyBindingError(["write it as unbind KEY [SCREEN…]"]) }
        let key = try parseKey(first)
        return (key, words.count > 1 ? try parseScreens(words.dropFirst()) : Set(ScreenKind.allCases))
    }

    private static func parseKey(_ word: String) throws(KeyBindingError) -> Key {
        guard let key = Key(name: word) else {
            throw KeyBindingError(["unknown key '\(word)' (a key is one character, or \(Key.names.joined(separator: ", ")), or Ctrl-X)"])
        }
        guard key != .control("c") else { throw KeyBindingError(["Ctrl-C always quits; it cannot be bound"]) }
        return key
    }

    private static func parseScreens(_ words: ArraySlice<String>) throws(KeyBindingError) -> Set<ScreenKind> {
        var screens: Set<ScreenKind> = []
        for word in words {
            guard let screen = ScreenKind(name: word) else {
                throw KeyBindingError(["unknown screen '\(word)' (screens: \(ScreenKind.allCases.map(\.name).joined(separator: ", ")))"])
            }
            screens.insert(screen)
        }
        return screens
    }
}

/// The config's key lines that cannot apply, one message per problem, each naming its line.
public struct KeyBindingError: Error, Equatable, CustomStringConvertible {
    public let messages: [String]

    init(_ messages: [String]) {
        self.messages = messages
    }

    public var description: String { messages.joined(separator: "\n") }
}

extension KeyBinding {
    func with(keys: [Key], screens: Set<ScreenKind>) -> KeyBinding {
        KeyBinding(command: command, keys: keys, hint: hint, help: help, screens: screens, isHinted: isHinted)
    }
}

extension Command {
    /// How the config and `newsstand keys` write the command: `toggleShelfView` is `toggle-shelf-view`.
    public var name: String {
        rawValue.reduce(into: "") { name, character in
            if character.isUppercase { name += "-" + character.lowercased() } else { name.append(character) }
        }
    }

    public init?(name: String) {
        guard let command = Command.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = command
    }
}

extension Key {
    /// The keys with names, as the config writes them (any case); a single character is itself, Ctrl-X a control key.
    static let named: [(String, Key)] = [
        ("Enter", .enter), ("Esc", .escape), ("Tab", .tab), ("Shift-Tab", .backTab), ("Backspace", .backspace),
        ("Space", .character(" ")), ("Up", .up), ("Down", .down), ("Left", .left), ("Right", .right),
        ("PgUp", .pageUp), ("PgDn", .pageDown), ("Home", .home), ("End", .end), ("Hash", .character("#")),
    ]

    static var names: [String] { named.map(\.0) }

    /// A key as the config writes it: `x`, `X`, `?`, `Enter`, `PgDn`, `Ctrl-X` (or `^X`), or a label help shows (`↓`).
    public init?(name: String) {
        if name.count == 1, let character = name.first {
            let arrows: [Character: Key] = ["↑": .up, "↓": .down, "←": .left, "→": .right]
            self = arrows[character] ?? .character(character)
            return
        }
        if let key = Self.named.first(where: { $0.0.lowercased() == name.lowercased() })?.1 {
            self = key
            return
        }
        for prefix in ["ctrl-", "^"] where name.lowercased().hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            if rest.count == 1, let letter = rest.lowercased().first, letter.isLetter, letter.isASCII {
                self = .control(letter)
                return
            }
        }
        return nil
    }
}

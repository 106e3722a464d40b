import Foundation
import NewsstandCore
import NewsstandUI

/// `newsstand keys`: the key table in effect — the config's `bind` and `unbind` lines applied — per screen:
/// keys, the command's name (what `bind` takes) and what it does, as `?` in the shelf lists them.
enum KeysCommand {
    static func run(_ arguments: inout ArgumentList) throws {
        try arguments.finish()
        let paths = LibraryPaths.fromEnvironment(ProcessInfo.processInfo.environment)
        do {
            print(text(try ShelfCommand.keyTable(Configuration.load(from: paths.configFile))))
        } catch {
            FileHandle.standardError.write(Data("newsstand: \(error)\nThe keys without those lines:\n".utf8))
            print(text(.standard))
            exit(1)
        }
    }

    /// Every screen's rows: keys, command name, help; then how to change them.
    static func text(_ keys: KeyTable) -> String {
        var lines: [String] = []
        for (title, screen) in HelpScreen.sections {
            lines.append("\(title) (\(screen.name))")
            for binding in keys.documented(on: screen) {
                lines.append("  " + pad(HelpScreen.keyLabel(binding), 18) + pad(binding.command.name, 24) + binding.help)
            }
            lines.append("")
        }
        lines.append("Change them in the config file, a line each: bind KEY COMMAND [SCREEN…] or unbind KEY [SCREEN…].")
        return lines.joined(separator: "\n")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

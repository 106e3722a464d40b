import Foundation

/// A program the config file names for Newsstand to run: `player mpv %u`, `browser firefox %u`,
/// `notify-program notify-send Newsstand`.
///
/// No shell: the words are the program and its arguments as written. `%u` inside any of them becomes the URL and
/// `%f` the local file (a `file:` URL's path; any other URL as it is), whatever characters they hold (one argument,
/// never split or interpreted). Without either, the URL is the last argument (when there is one).
public struct HookCommand: Equatable, Sendable {
    /// The program and its arguments, `%u` and `%f` where the URL and the file go.
    public var words: [String]

    /// nil when `text` has no program.
    public init?(_ text: String) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let program = words.first, !program.contains("%u"), !program.contains("%f") else { return nil }
        self.words = words
    }

    /// The program's name or path, and its arguments for `url` (nil: the arguments as written, then `extra`).
    public func invocation(for url: URL? = nil, appending extra: [String] = []) -> (program: String, arguments: [String]) {
        var arguments = Array(words.dropFirst())
        if let url {
            let link = url.absoluteString
            let file = url.isFileURL ? url.path : link
            let placed = arguments.contains { $0.contains("%u") || $0.contains("%f") }
            arguments = arguments.map { $0.replacingOccurrences(of: "%u", with: link).replacingOccurrences(of: "%f", with: file) }
            if !placed { arguments.append(link) }
        }
        return (words[0], arguments + extra)
    }

    /// How the config file writes it.
    public var description: String { words.joined(separator: " ") }
}

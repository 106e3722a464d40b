import Foundation

/// The program a headline's audio or video file is handed to (`player mpv %u` in the config file).
///
/// No shell: the words are the program and its arguments as written, and `%u` inside any of them
/// becomes the file's URL, whatever characters it holds (one argument, never split or interpreted).
/// Without `%u`, the URL is the last argument.
public struct PlayerCommand: Equatable, Sendable {
    /// The program and its arguments, `%u` where the URL goes.
    public var words: [String]

    /// nil when `text` has no program.
    public init?(_ text: String) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let program = words.first, !program.contains("%u") else { return nil }
        self.words = words
    }

    /// The program's name or path, and the arguments for `url`.
    public func invocation(for url: URL) -> (program: String, arguments: [String]) {
        let link = url.absoluteString
        var arguments = words.dropFirst().map { $0.replacingOccurrences(of: "%u", with: link) }
        if !words.dropFirst().contains(where: { $0.contains("%u") }) { arguments.append(link) }
        return (words[0], arguments)
    }

    /// How the config file writes it.
    public var description: String { words.joined(separator: " ") }
}

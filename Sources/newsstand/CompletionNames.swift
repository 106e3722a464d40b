import Foundation
import NewsstandCore
import NewsstandUI

/// `newsstand __names issues|publications|themes|hosts [--] PREFIX`: the names a shell's completion offers for an
/// argument, one a line, starting with PREFIX (hidden; the completion scripts run it at each Tab).
///
/// Issues and publications come from the library by a keyset query (`LibraryStore+Completion`), at most `limit`;
/// a completion never creates or changes a library: without one, nothing is printed. Names that would not survive
/// a shell's word splitting (white space, control characters) are left out.
enum CompletionNames {
    /// The hidden command word.
    static let commandName = "__names"
    /// The most names printed: more than a screen of candidates helps nobody.
    static let limit = 200

    static func run(_ arguments: inout ArgumentList) throws {
        let kind = try arguments.positional("what to name (issues, publications, themes or hosts)")
        let prefix = arguments.hasPositional ? try arguments.positional("prefix") : ""
        try arguments.finish()
        let environment = ProcessInfo.processInfo.environment
        let paths = LibraryPaths.fromEnvironment(environment)
        let names: [String]
        switch kind {
        case "issues", "publications":
            guard FileManager.default.fileExists(atPath: paths.databaseFile.path) else { return }
            let store = try LibraryStore(file: paths.databaseFile)
            defer { store.close() }
            names = kind == "issues" ? try store.issueNameCandidates(startingWith: prefix, limit: limit)
                : try store.publicationNameCandidates(startingWith: prefix, limit: limit)
        case "themes":
            names = themeNames(paths: paths, environment: environment).filter { $0.hasPrefix(prefix) }
        case "hosts":
            // The hosts only: no user name, realm or password. A credential file not safe to read gives none.
            let logins = (try? CredentialStore(paths: paths).logins()) ?? []
            names = Array(Set(logins.map { "\($0.host)" })).sorted().filter { $0.hasPrefix(prefix) }
        default:
            throw UsageError("\(commandName) names issues, publications, themes or hosts, not '\(kind)'")
        }
        let typable = names.filter { name in !name.isEmpty && !name.unicodeScalars.contains { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F } }
        if !typable.isEmpty { print(typable.joined(separator: "\n")) }
    }

    /// The themes `--theme` takes: `auto`, and the user's and the bundled ones (`NAME.theme`), each once, sorted.
    static func themeNames(paths: LibraryPaths, environment: [String: String]) -> [String] {
        let folders = [paths.userThemesDirectory] + [ResourceLocator.themes(environment)].compactMap { $0 }
        let names = folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { $0.hasSuffix(".theme") }.map { String($0.dropLast(".theme".count)) }
        }
        return Array(Set(names + [ThemeChoice.automaticName])).sorted()
    }
}

import Foundation
import NewsstandCore
import NewsstandUI

/// Finds theme files by name: `NAME.theme` in the user's themes folder first, then the bundled `Themes/`.
/// The files are read here, in the runtime; the interface receives the parsed `Theme` (`ThemeParser` is pure).
public struct ThemeLoader: Sendable {
    public let searchDirectories: [URL]

    public init(searchDirectories: [URL]) {
        self.searchDirectories = searchDirectories
    }

    /// Loads the named theme, or says where it looked.
    public func load(_ name: String) throws -> Theme {
        try load(name, text: text(of: name))
    }

    /// The named theme from its file's text as already read (`text(of:)`; nil: there is none, said as `load` says it).
    public func load(_ name: String, text: String?) throws -> Theme {
        guard let text else {
            throw ThemeError(description: "theme '\(name)' not found (looked in \(searchDirectories.map(\.path).joined(separator: ", ")))")
        }
        return try ThemeParser.parse(text, name: name)
    }

    /// The text of the file `load` parses for this name (the first found), or nil when there is none.
    public func text(of name: String) -> String? {
        let fileName = PathSafeName.check(name) + ".theme"
        return searchDirectories.lazy.compactMap { SettingsFileText.contents(of: $0.appendingPathComponent(fileName)) }.first
    }

    /// Names of every theme that can be loaded.
    public func availableThemes() -> [String] {
        var names: Set<String> = []
        for directory in searchDirectories {
            for file in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] where file.hasSuffix(".theme") {
                names.insert(String(file.dropLast(6)))
            }
        }
        return names.sorted()
    }
}

/// Keeps a user-typed name from reaching outside a folder: every `/` becomes `_`, then every `..` (left to right) `_`.
/// Done on the bytes (both are ASCII, never part of another character in UTF-8): Foundation's `replacingOccurrences`
/// went through `NSString`, a sixth of a millisecond of every start.
enum PathSafeName {
    static func check(_ name: String) -> String {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: "."), underscore = UInt8(ascii: "_")
        let bytes = Array(name.utf8)
        var safe: [UInt8] = []
        safe.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == dot, index + 1 < bytes.count, bytes[index + 1] == dot {
                safe.append(underscore)
                index += 2
            } else {
                safe.append(bytes[index] == slash ? underscore : bytes[index])
                index += 1
            }
        }
        return String(decoding: safe, as: UTF8.self)
    }
}

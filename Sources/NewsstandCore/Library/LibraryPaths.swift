import Foundation

/// Where Newsstand keeps its files, following the XDG base directory rules.
///
/// Data (the library database and installed issues) goes under `$XDG_DATA_HOME/newsstand`,
/// configuration under `$XDG_CONFIG_HOME/newsstand`, and re-fetchable files (covers)
/// under `$XDG_CACHE_HOME/newsstand`; each defaults under `$HOME` as the spec says.
public struct LibraryPaths: Sendable, Equatable {
    public let dataDirectory: URL
    public let configDirectory: URL
    public let cacheDirectory: URL

    public init(dataDirectory: URL, configDirectory: URL, cacheDirectory: URL) {
        self.dataDirectory = dataDirectory
        self.configDirectory = configDirectory
        self.cacheDirectory = cacheDirectory
    }

    /// Paths from the environment (`XDG_*` variables, else `HOME`).
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> LibraryPaths {
        let home = URL(fileURLWithPath: environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory(), isDirectory: true)
        func base(_ variable: String, _ fallback: String) -> URL {
            // The spec says relative paths in these variables are invalid and must be ignored.
            if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value, isDirectory: true) }
            return home.appendingPathComponent(fallback, isDirectory: true)
        }
        return LibraryPaths(
            dataDirectory: base("XDG_DATA_HOME", ".local/share").appendingPathComponent("newsstand", isDirectory: true),
            configDirectory: base("XDG_CONFIG_HOME", ".config").appendingPathComponent("newsstand", isDirectory: true),
            cacheDirectory: base("XDG_CACHE_HOME", ".cache").appendingPathComponent("newsstand", isDirectory: true))
    }

    public var databaseFile: URL { dataDirectory.appendingPathComponent("library.sqlite") }
    public var issuesDirectory: URL { dataDirectory.appendingPathComponent("issues", isDirectory: true) }
    public var partialDownloadsDirectory: URL { dataDirectory.appendingPathComponent("partial", isDirectory: true) }
    public var coverCacheDirectory: URL { cacheDirectory.appendingPathComponent("covers", isDirectory: true) }
    public var configFile: URL { configDirectory.appendingPathComponent("config") }
    /// The saved logins (`CredentialStore`): mode 0600, written only by Newsstand.
    public var credentialsFile: URL { dataDirectory.appendingPathComponent("credentials") }
    public var userThemesDirectory: URL { configDirectory.appendingPathComponent("themes", isDirectory: true) }

    /// The folder an issue is installed into. Names come from the network, so only a safe slug of them is used.
    public func folder(for issue: Issue, of publication: Publication) -> URL {
        issuesDirectory
            .appendingPathComponent(PathComponent.safe(publication.name), isDirectory: true)
            .appendingPathComponent("\(issue.id)-\(PathComponent.safe(issue.name))", isDirectory: true)
    }

    /// The partial file of one asset of an issue's download.
    public func partialFile(issueID: Int64, asset: Int) -> URL {
        partialDownloadsDirectory.appendingPathComponent("\(issueID)-\(asset).part")
    }

    /// The lock file a process holds (flock) while it downloads or installs an issue.
    public func downloadLockFile(issueID: Int64) -> URL {
        partialDownloadsDirectory.appendingPathComponent("\(issueID).lock")
    }

    /// Creates the data, config and cache folders if they are missing, or says in plain words which one cannot be.
    public func createDirectories() throws {
        for directory in [dataDirectory, configDirectory, cacheDirectory, issuesDirectory, partialDownloadsDirectory, coverCacheDirectory] {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw FolderError(folder: directory, error)
            }
        }
    }
}

/// A folder Newsstand needs that cannot be made, and why, as the user reads it (not Foundation's error domain).
public struct FolderError: Error, CustomStringConvertible {
    public let description: String

    init(folder: URL, _ error: any Error) {
        // The nearest part of the path that exists: a file there is in the way.
        var existing = folder
        var isFolder: ObjCBool = false
        while !FileManager.default.fileExists(atPath: existing.path, isDirectory: &isFolder), existing.path != "/" {
            existing.deleteLastPathComponent()
        }
        let reason = isFolder.boolValue ? (((error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error) ?? error).localizedDescription
                                        : "\(existing.path) is a file, not a folder"
        description = "cannot make the folder \(folder.path): \(reason)"
    }
}

/// Turns untrusted names into single safe path components.
public enum PathComponent {
    /// Letters, digits, `-`, `_` and `.` kept; anything else becomes `_`; never empty, never `.` or `..`, at most 80 characters.
    public static func safe(_ name: String) -> String {
        var result = String(name.unicodeScalars.map { scalar -> Character in
            let value = scalar.value
            let isSafe = (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
                || scalar == "-" || scalar == "_" || scalar == "."
            return isSafe ? Character(scalar) : "_"
        }.prefix(80))
        while result.hasPrefix(".") { result = "_" + result.dropFirst() }
        return result.isEmpty ? "_" : result
    }

    /// A lowercase slug for names typed on the command line: "The Lantern, No. 3" → "the-lantern-no-3"; `fallback`
    /// when nothing of the title is ASCII letters or digits.
    public static func slug(_ title: String, fallback: String = "publication") -> String {
        var slug = ""
        for scalar in title.lowercased().unicodeScalars {
            if scalar.isASCII && (("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty && !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty ? fallback : String(slug.prefix(60))
    }
}

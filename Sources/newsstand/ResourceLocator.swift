import Foundation

/// Finds the files that ship beside the program: the sample library and the bundled themes.
///
/// In order: an environment variable (`NEWSSTAND_SAMPLE_LIBRARY`, `NEWSSTAND_THEMES`); then, in each folder
/// above the executable from the nearest up, a folder of that name (a checkout running `.build/release/newsstand`)
/// or `share/newsstand/NAME` (an installed `PREFIX/bin/newsstand` beside `PREFIX/share/newsstand`, wherever
/// PREFIX is, a `DESTDIR` staging tree too); then `/usr/local/share/newsstand` and `/usr/share/newsstand`.
enum ResourceLocator {
    static func sampleLibrary(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        locate("SampleLibrary", variable: "NEWSSTAND_SAMPLE_LIBRARY", marker: "catalog.plist", environment: environment)
    }

    static func themes(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        locate("Themes", variable: "NEWSSTAND_THEMES", marker: "dark.theme", environment: environment)
    }

    /// Where `make install` puts the shared files, below the installation prefix.
    static let installedFolder = "share/newsstand"

    /// Done on paths as text with `access(2)`: Foundation's URL and FileManager took a third of a millisecond here, on
    /// the way to the first frame.
    private static func locate(_ name: String, variable: String, marker: String, environment: [String: String]) -> URL? {
        func holdsMarker(_ directory: String) -> Bool {
            access(directory + "/" + marker, F_OK) == 0
        }
        if let path = environment[variable], !path.isEmpty {
            // An explicit setting wins, even when it points nowhere (so tests can switch the sample off).
            return holdsMarker(path) ? URL(fileURLWithPath: path, isDirectory: true) : nil
        }
        var directory = parent(of: executablePath)
        while directory != "/" && !directory.isEmpty {
            for candidate in [directory + "/" + name, directory + "/" + installedFolder + "/" + name] where holdsMarker(candidate) {
                return URL(fileURLWithPath: candidate, isDirectory: true)
            }
            directory = parent(of: directory)
        }
        for prefix in ["/usr/local", "/usr"] {
            let candidate = prefix + "/" + installedFolder + "/" + name
            if holdsMarker(candidate) { return URL(fileURLWithPath: candidate, isDirectory: true) }
        }
        return nil
    }

    /// The folder a path is in ("/" for one at the top).
    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The running executable's absolute path.
    private static var executablePath: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 { return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    }
}

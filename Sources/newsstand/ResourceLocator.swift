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

    private static func locate(_ name: String, variable: String, marker: String, environment: [String: String]) -> URL? {
        let fileManager = FileManager.default
        func holdsMarker(_ candidate: URL) -> Bool {
            fileManager.fileExists(atPath: candidate.appendingPathComponent(marker).path)
        }
        if let path = environment[variable], !path.isEmpty {
            // An explicit setting wins, even when it points nowhere (so tests can switch the sample off).
            let directory = URL(fileURLWithPath: path, isDirectory: true)
            return holdsMarker(directory) ? directory : nil
        }
        var directory = executableURL.deletingLastPathComponent()
        while directory.path != "/" {
            for candidate in [directory.appendingPathComponent(name, isDirectory: true),
                              directory.appendingPathComponent(installedFolder, isDirectory: true).appendingPathComponent(name, isDirectory: true)]
            where holdsMarker(candidate) {
                return candidate
            }
            directory = directory.deletingLastPathComponent()
        }
        for prefix in ["/usr/local", "/usr"] {
            let candidate = URL(fileURLWithPath: prefix, isDirectory: true).appendingPathComponent(installedFolder, isDirectory: true)
                .appendingPathComponent(name, isDirectory: true)
            if holdsMarker(candidate) { return candidate }
        }
        return nil
    }

    private static var executableURL: URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    }
}

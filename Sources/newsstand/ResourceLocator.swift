import Foundation

/// Finds the files that ship beside the program: the sample library and the bundled themes.
///
/// In order: an environment variable (`NEWSSTAND_SAMPLE_LIBRARY`, `NEWSSTAND_THEMES`); the
/// nearest folder of that name above the executable (a checkout running `.build/release/newsstand`);
/// then `/usr/local/share/newsstand` and `/usr/share/newsstand`.
enum ResourceLocator {
    static func sampleLibrary(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        locate("SampleLibrary", variable: "NEWSSTAND_SAMPLE_LIBRARY", marker: "catalog.plist", environment: environment)
    }

    static func themes(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        locate("Themes", variable: "NEWSSTAND_THEMES", marker: "dark.theme", environment: environment)
    }

    private static func locate(_ name: String, variable: String, marker: String, environment: [String: String]) -> URL? {
        let fileManager = FileManager.default
        if let path = environment[variable], !path.isEmpty {
            // An explicit setting wins, even when it points nowhere (so tests can switch the sample off).
            let directory = URL(fileURLWithPath: path, isDirectory: true)
            return fileManager.fileExists(atPath: directory.appendingPathComponent(marker).path) ? directory : nil
        }
        var directory = executableURL.deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent(name, isDirectory: true)
            if fileManager.fileExists(atPath: candidate.appendingPathComponent(marker).path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        for prefix in ["/usr/local/share/newsstand", "/usr/share/newsstand"] {
            let candidate = URL(fileURLWithPath: prefix, isDirectory: true).appendingPathComponent(name, isDirectory: true)
            if fileManager.fileExists(atPath: candidate.appendingPathComponent(marker).path) { return candidate }
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

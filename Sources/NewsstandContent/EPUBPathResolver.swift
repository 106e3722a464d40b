import Foundation

/// Resolves hrefs found inside a publication to file URLs, refusing anything that would leave
/// the publication folder (too many `..`, percent-encoded slashes, symlinks pointing out).
///
/// Paths are handled as component lists relative to the folder so equal files always get equal URLs.
struct EPUBPathResolver {
    /// A resolved location: the file and the decoded fragment after `#`.
    struct Location: Equatable {
        var components: [String]
        var fragment: String?
    }

    let rootPath: String
    private let realRootPath: String

    init(folder: URL) {
        var path = folder.standardizedFileURL.path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        rootPath = path
        realRootPath = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    func url(for components: [String]) -> URL {
        URL(fileURLWithPath: rootPath + "/" + components.joined(separator: "/"), isDirectory: false)
    }

    /// Folder-relative path for messages, e.g. "OPS/package.opf".
    func displayPath(_ components: [String]) -> String {
        components.joined(separator: "/")
    }

    /// Resolves `href` as written in the file at `base` (folder-relative components; [] for the folder
    /// itself). Returns nil for remote or malformed references and for anything outside the folder.
    func resolve(_ href: String, relativeTo base: [String]) -> Location? {
        let trimmed = href.trimmingCharacters(in: .whitespacesAndNewlines)
        var pathPart = Substring(trimmed)
        var fragment: String?
        if let hash = pathPart.firstIndex(of: "#") {
            let raw = String(pathPart[pathPart.index(after: hash)...])
            fragment = raw.removingPercentEncoding ?? raw
            if fragment?.isEmpty == true { fragment = nil }
            pathPart = pathPart[..<hash]
        }
        if let question = pathPart.firstIndex(of: "?") { pathPart = pathPart[..<question] }
        if Self.hasScheme(pathPart) { return nil }

        var components: [String]
        if pathPart.isEmpty {
            components = base
        } else if pathPart.hasPrefix("/") {
            components = []
        } else {
            components = Array(base.dropLast())
        }
        if !pathPart.isEmpty {
            for rawSegment in pathPart.split(separator: "/", omittingEmptySubsequences: false) {
                guard let segment = rawSegment.removingPercentEncoding else { return nil }
                if segment.isEmpty || segment == "." { continue }
                if segment.contains("/") || segment.contains("\0") { return nil }
                if segment == ".." {
                    if components.isEmpty { return nil }
                    components.removeLast()
                    continue
                }
                components.append(segment)
            }
        }
        guard !components.isEmpty, staysInside(components) else { return nil }
        return Location(components: components, fragment: fragment)
    }

    /// True when the file (following any symlinks on disk) is inside the folder.
    /// A file that does not exist is judged by its deepest existing folder, resolved the same way as the root.
    func staysInside(_ components: [String]) -> Bool {
        var existing = components
        var missing: [String] = []
        while !existing.isEmpty && !FileManager.default.fileExists(atPath: url(for: existing).path) {
            missing.insert(existing.removeLast(), at: 0)
        }
        let base = existing.isEmpty ? realRootPath : url(for: existing).resolvingSymlinksInPath().path
        let real = ([base] + missing).joined(separator: "/")
        return real == realRootPath || real.hasPrefix(realRootPath == "/" ? "/" : realRootPath + "/")
    }

    private static func hasScheme(_ text: Substring) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }
}

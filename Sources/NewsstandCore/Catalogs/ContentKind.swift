import Foundation
import NewsstandContent

/// What a feed's file is, judged from its media type or, when the type says nothing, its file name:
/// an issue Newsstand reads (EPUB, PDF, CBZ/CB7/CBT), something else (audio, video, a picture, a web
/// page: never queued as an issue), or not known until the server answers.
public enum ContentKind: Equatable, Sendable {
    /// A readable issue's format.
    case readable
    /// Not an issue: `description` says what it is in plain words ("audio (audio/mpeg)").
    case other(description: String)
    /// Neither the type nor the name tells (`application/octet-stream`, no type, no known extension).
    case unknown

    /// Whether a download of this kind must never be queued as an issue.
    public var isOther: Bool { if case .other = self { true } else { false } }

    static let readableTypes: Set<String> = [
        "application/epub+zip", "application/pdf", "application/x-pdf",
        "application/vnd.comicbook+zip", "application/x-cbz", "application/x-cb7", "application/x-cbt",
        "application/vnd.comicbook+7z", "application/vnd.comicbook+tar",
    ]
    /// Types a server sends for any file: the file name decides.
    static let genericTypes: Set<String> = [
        "", "application/octet-stream", "binary/octet-stream", "application/zip", "application/x-zip",
        "application/x-zip-compressed", "application/download", "application/force-download", "application/unknown",
    ]
    static let readableExtensions: Set<String> = ["epub", "pdf", "cbz", "cb7", "cbt"]
    static let audioExtensions: Set<String> = ["mp3", "m4a", "m4b", "aac", "ogg", "oga", "opus", "flac", "wav", "wma", "mka"]
    static let videoExtensions: Set<String> = ["mp4", "m4v", "mov", "webm", "mkv", "avi", "wmv", "mpg", "mpeg", "ogv", "3gp", "m3u8"]

    /// The kind of a feed's link from its `type` attribute and its URL's text.
    public static func of(type: String?, link: String) -> ContentKind {
        let kind = of(type: type)
        guard kind == .unknown else { return kind }
        return of(fileName: link)
    }

    /// The kind a media type alone tells (parameters such as `; charset=` are ignored).
    public static func of(type: String?) -> ContentKind {
        let type = normalized(type)
        if genericTypes.contains(type) { return .unknown }
        if readableTypes.contains(type) { return .readable }
        // What the feed wrote is shown: one clean line, never an escape sequence.
        let shown = TextSanitizer.singleLine(String(type.prefix(80)))
        if type.hasPrefix("audio/") || type == "application/ogg" || type.hasPrefix("application/audiobook") { return .other(description: "audio (\(shown))") }
        if type.hasPrefix("video/") || type.hasSuffix("mpegurl") || type == "application/dash+xml" { return .other(description: "video (\(shown))") }
        if type.hasPrefix("image/") { return .other(description: "a picture (\(shown))") }
        if type.hasPrefix("text/html") || type.hasPrefix("application/xhtml") { return .other(description: "a web page (\(shown))") }
        // A type that names something else (application/x-mobipocket-ebook, text/plain, …) is not an issue either.
        return .other(description: "a file of type \(shown)")
    }

    /// `type` without its parameters, trimmed of spaces and tabs, lower-cased. Read in place when it is
    /// ASCII without parameters, capitals or a space or tab at either end (nearly always: every
    /// enclosure of a feed goes through here); anything else through `split` and Foundation's trimming.
    static func normalized(_ type: String?) -> String {
        guard let type else { return "" }
        let plain = type.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard let first = bytes.first, let last = bytes.last else { return true }
            guard first != 0x20, first != 0x09, last != 0x20, last != 0x09 else { return false }
            for byte in bytes where byte >= 0x80 || byte == UInt8(ascii: ";") || (byte >= 0x41 && byte <= 0x5A) { return false }
            return true
        }
        if plain == true { return type }
        return type.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }

    /// The kind a URL's or file's name tells by its extension (query and fragment ignored).
    public static func of(fileName link: String) -> ContentKind {
        var path = Substring(link)
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        guard let slash = path.lastIndex(of: "/").map({ path.index(after: $0) }) ?? Optional(path.startIndex),
              let dot = path[slash...].lastIndex(of: ".") else { return .unknown }
        let ext = path[path.index(after: dot)...].lowercased()
        if readableExtensions.contains(ext) { return .readable }
        if audioExtensions.contains(ext) { return .other(description: "audio (.\(ext))") }
        if videoExtensions.contains(ext) { return .other(description: "video (.\(ext))") }
        return .unknown
    }

    /// Whether a response's `Content-Type` shows the body is audio or video: a download stops at its head.
    /// Other types are left to the checks after the download (servers often mislabel issues).
    public static func isStreamedMedia(contentType: String?) -> Bool {
        guard case .other(let description) = of(type: contentType) else { return false }
        return description.hasPrefix("audio") || description.hasPrefix("video")
    }
}

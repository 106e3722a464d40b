/// Content types the server announces for files, by file extension.
enum MIMETypes {
    static let byExtension: [String: String] = [
        "plist": "application/x-plist",
        "epub": "application/epub+zip",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "png": "image/png",
        "gif": "image/gif",
        "xml": "application/xml",
        "atom": "application/atom+xml",
        "rss": "application/rss+xml",
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "txt": "text/plain; charset=utf-8",
        "json": "application/json",
        "pdf": "application/pdf",
        "zip": "application/zip",
        "cbz": "application/vnd.comicbook+zip",
        "cb7": "application/x-cb7",
        "cbt": "application/x-cbt",
    ]

    /// The content type for a file name, `application/octet-stream` when the extension is unknown.
    static func contentType(forFileName name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "application/octet-stream" }
        let ext = name[name.index(after: dot)...].lowercased()
        return byExtension[ext] ?? "application/octet-stream"
    }
}

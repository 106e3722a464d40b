import Foundation

/// Whether a response's head announces something a download can install, judged before a byte of its
/// body is written.
enum AssetContentCheck {
    /// A text reply where an issue was expected (a captive portal, an error page sent with 200), or audio
    /// or video (a podcast's file): what came, in words; nil for anything else.
    static func webPageProblem(_ head: HTTPResponseHead) -> String? {
        let type = (head.header("Content-Type") ?? "").lowercased()
        if ContentKind.isStreamedMedia(contentType: type), case .other(let kind) = ContentKind.of(type: type) {
            return "the server sent \(kind), not a readable issue (EPUB, PDF or comic)"
        }
        guard type.hasPrefix("text/html") || type.hasPrefix("text/plain") else { return nil }
        return "the server sent a web page (\(type)) instead of the issue"
    }
}

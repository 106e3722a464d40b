/// A reading position in kosync's terms, as sent: the document id, `progress` (an XPointer for an EPUB, the page
/// number for PDF and comic books — always a string), `percentage` through the whole issue (0–1), and the title of
/// the article it is in (ours, for messages; not sent).
public struct ProgressSyncPosition: Sendable, Equatable {
    public var document: String
    public var progress: String
    public var percentage: Double
    public var articleTitle: String

    public init(document: String, progress: String, percentage: Double, articleTitle: String = "") {
        self.document = document
        self.progress = progress
        self.percentage = percentage
        self.articleTitle = articleTitle
    }
}

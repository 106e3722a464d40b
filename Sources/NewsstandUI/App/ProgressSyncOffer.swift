import NewsstandCore

/// A place another device reached in the open issue, as the progress sync server gave it: where it is in our terms,
/// and what the question says (device, percentage, article). `jump`: go there without asking.
public struct ProgressSyncOffer: Equatable, Sendable {
    public var issueID: Int64
    public var position: ReadingPosition
    public var device: String
    public var percentage: Double
    public var articleTitle: String
    public var jump: Bool

    public init(issueID: Int64, position: ReadingPosition, device: String, percentage: Double, articleTitle: String, jump: Bool) {
        self.issueID = issueID
        self.position = position
        self.device = device
        self.percentage = percentage
        self.articleTitle = articleTitle
        self.jump = jump
    }

    /// `62%`.
    public var percentText: String { "\(Int((percentage * 100).rounded()))%" }

    /// The status line's question: `Kobo is at 62%, “Letters”: go there? y/n`.
    public var question: String { "\(device) is at \(percentText), “\(articleTitle)”: go there? y/n" }
}

/// Where a reader is in an issue: the article and an offset into its text that does not depend on the window width.
public struct ReadingPosition: Sendable, Equatable {
    public var articleIndex: Int
    /// Index of the text block at the top of the view.
    public var blockIndex: Int

    public init(articleIndex: Int, blockIndex: Int) {
        self.articleIndex = articleIndex
        self.blockIndex = blockIndex
    }
}

/// Where a reader is in an issue: the article and an offset into its text that does not depend on the window width.
public struct ReadingPosition: Sendable, Equatable {
    public var articleIndex: Int
    /// Index of the text block at the top of the view.
    public var blockIndex: Int
    /// How far into that block the top line starts, in characters of its text other than white space
    /// and decoration such as quote bars and rules (what wrapping at another width changes), so the
    /// same line comes back at any width.
    public var characterOffset: Int

    public init(articleIndex: Int, blockIndex: Int, characterOffset: Int = 0) {
        self.articleIndex = articleIndex
        self.blockIndex = blockIndex
        self.characterOffset = characterOffset
    }
}

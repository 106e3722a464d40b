/// A place in an issue where the searched text occurs: an article's block.
public struct IssueMatch: Hashable, Sendable, Comparable {
    public let articleIndex: Int
    public let blockIndex: Int

    public init(articleIndex: Int, blockIndex: Int) {
        self.articleIndex = articleIndex
        self.blockIndex = blockIndex
    }

    public static func < (lhs: IssueMatch, rhs: IssueMatch) -> Bool {
        (lhs.articleIndex, lhs.blockIndex) < (rhs.articleIndex, rhs.blockIndex)
    }
}

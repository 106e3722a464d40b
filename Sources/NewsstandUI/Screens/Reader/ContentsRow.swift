import NewsstandContent

/// A row of the table of contents: an entry of the publication's nested contents.
public struct ContentsRow: Equatable, Sendable {
    public let title: String
    public let depth: Int
    /// The article it opens (nil for a heading that points nowhere in the issue).
    public let articleIndex: Int?

    public init(title: String, depth: Int, articleIndex: Int?) {
        self.title = title
        self.depth = depth
        self.articleIndex = articleIndex
    }

    /// The book's nested contents, flattened depth first; one row per article when it has none.
    public static func rows(for book: EPUBBook?) -> [ContentsRow] {
        guard let book else { return [] }
        var rows: [ContentsRow] = []
        func visit(_ entries: [EPUBTableOfContentsEntry], depth: Int) {
            for entry in entries {
                rows.append(ContentsRow(title: entry.title, depth: depth, articleIndex: book.articleIndex(for: entry)))
                visit(entry.children, depth: depth + 1)
            }
        }
        visit(book.tableOfContents, depth: 0)
        if !rows.contains(where: { $0.articleIndex != nil }) {
            rows = book.articles.enumerated().map { ContentsRow(title: $0.element.title, depth: 0, articleIndex: $0.offset) }
        }
        return rows
    }
}

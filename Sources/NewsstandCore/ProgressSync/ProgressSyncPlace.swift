import Foundation
import NewsstandContent

/// Our reading positions in kosync's terms and back: an EPUB's as KOReader's XPointer into the chapter, a PDF's or
/// comic book's as the page number (a string); `percentage` through the whole issue, 0–1 (an EPUB's chapters weighed
/// by the size of their files, a chapter's blocks evenly).
public struct ProgressSyncPlace {
    public let book: EPUBBook
    /// The blocks of an article, as the reader has them (read from the issue when not given).
    private let blocksOf: (Int) -> [TextBlock]

    public init(book: EPUBBook, blocks: @escaping (Int) -> [TextBlock]) {
        self.book = book
        self.blocksOf = blocks
    }

    /// For a book whose article blocks are read from its files as needed.
    public init(book: EPUBBook) {
        self.init(book: book) { (try? IssueContent.blocks(of: book, article: $0)) ?? [] }
    }

    private var isPaged: Bool { book.isPDF || book.isComicBook }

    /// `progress` and `percentage` for our position.
    public func progress(of position: ReadingPosition) -> (progress: String, percentage: Double) {
        guard !book.articles.isEmpty else { return ("1", 0) }
        let article = min(max(0, position.articleIndex), book.articles.count - 1)
        if isPaged {
            return (String(article + 1), Double(article + 1) / Double(book.articles.count))
        }
        let blocks = blocksOf(article)
        let fraction = blocks.isEmpty ? 0 : Double(min(position.blockIndex, blocks.count)) / Double(blocks.count)
        let percentage = percentage(article: article, fraction: fraction)
        guard let data = FileManager.default.contents(atPath: book.articles[article].file.path), !blocks.isEmpty else {
            return ("/body/DocFragment[\(fragment(of: article))]", percentage)
        }
        let pointer = KOReaderXPointer.write(fragment: fragment(of: article), document: data, blocks: blocks,
                                             blockIndex: position.blockIndex, characterOffset: position.characterOffset)
        return (pointer, percentage)
    }

    /// Our position for a `progress` and `percentage` from the server: the XPointer's element when it resolves in
    /// the chapter's document, else the chapter it names and the percentage, else the percentage alone.
    public func position(progress: String, percentage: Double) -> ReadingPosition {
        guard !book.articles.isEmpty else { return ReadingPosition(articleIndex: 0, blockIndex: 0) }
        if isPaged {
            let page = Int(progress.trimmingCharacters(in: .whitespaces)).map { $0 - 1 }
                ?? Int((percentage * Double(book.articles.count)).rounded(.up)) - 1
            return ReadingPosition(articleIndex: min(max(0, page), book.articles.count - 1), blockIndex: 0)
        }
        let byPercentage = place(at: percentage)
        guard let pointer = KOReaderXPointer.parse(progress),
              let article = book.articles.firstIndex(where: { $0.spinePosition == pointer.fragment }) ?? (book.articles.first?.spinePosition == 0 && book.articles.indices.contains(pointer.fragment - 1) ? pointer.fragment - 1 : nil)
        else { return byPercentage }
        let blocks = blocksOf(article)
        if let data = FileManager.default.contents(atPath: book.articles[article].file.path),
           let resolved = KOReaderXPointer.resolve(pointer, document: data, blocks: blocks) {
            return ReadingPosition(articleIndex: article, blockIndex: resolved.blockIndex, characterOffset: resolved.characterOffset)
        }
        return byPercentage.articleIndex == article ? byPercentage : ReadingPosition(articleIndex: article, blockIndex: 0)
    }

    /// The article title of a position, for messages.
    public func title(of position: ReadingPosition) -> String {
        book.articles.indices.contains(position.articleIndex) ? book.articles[position.articleIndex].title : book.title
    }

    // MARK: Percentages

    private func fragment(of article: Int) -> Int {
        let position = book.articles[article].spinePosition
        return position > 0 ? position : article + 1
    }

    /// Each article's weight: its file's size (at least 1).
    private var weights: [Double] {
        book.articles.map { Double(max(1, FileSize.of($0.file) ?? 1)) }
    }

    private func percentage(article: Int, fraction: Double) -> Double {
        let weights = weights
        let total = weights.reduce(0, +)
        let before = weights.prefix(article).reduce(0, +)
        return min(1, max(0, (before + weights[article] * fraction) / total))
    }

    private func place(at percentage: Double) -> ReadingPosition {
        let weights = weights
        let total = weights.reduce(0, +)
        var target = min(1, max(0, percentage)) * total
        for (article, weight) in weights.enumerated() {
            if target < weight || article == weights.count - 1 {
                let blocks = blocksOf(article)
                let fraction = min(1, max(0, target / weight))
                let block = blocks.isEmpty ? 0 : min(blocks.count - 1, Int(fraction * Double(blocks.count)))
                return ReadingPosition(articleIndex: article, blockIndex: block)
            }
            target -= weight
        }
        return ReadingPosition(articleIndex: 0, blockIndex: 0)
    }
}

import Foundation
import NewsstandContent

/// Opens installed issues for reading: an EPUB's articles, a PDF's pages, or a comic book's pages.
public enum IssueContent {
    /// The media type of the articles of a PDF issue (one article per page).
    public static let pdfMediaType = "application/pdf"
    /// The media type of the articles of a comic book issue (CBZ, CB7, CBT: one article per page picture).
    public static let comicPageMediaType = "application/vnd.comicbook+zip"

    /// The issue in an installed folder, with its articles in reading order. An EPUB when the
    /// folder has `META-INF/container.xml`; else its first PDF, as a book whose articles are its
    /// pages ("Page N", each pointing at the PDF, with a `page=N` contents entry); else, when it holds
    /// page pictures, a comic book whose articles are its pages ("Page N" or "Page N: Front cover",
    /// each pointing at its picture, with a `page=N` contents entry); else whatever `EPUBReader` makes
    /// of it (which explains what is wrong). Runs `pdfinfo` for PDFs: call it off the UI thread.
    public static func openBook(folder: URL) throws -> EPUBBook {
        guard FileManager.default.fileExists(atPath: folder.path) else {
            throw DownloadError("the issue's files are missing; download it again")
        }
        if let pdf = pdfFile(in: folder) {
            let reader = PDFDocumentReader(file: pdf)
            let info: PDFInfo
            do { info = try reader.info() } catch let error as PDFError { throw DownloadError(error.description) }
            let pages = (1...max(1, info.pageCount)).map { EPUBArticle(title: "Page \($0)", file: pdf, mediaType: pdfMediaType) }
            return EPUBBook(title: info.title ?? pdf.deletingPathExtension().lastPathComponent, creator: nil, language: nil, version: "pdf",
                            articles: pages,
                            tableOfContents: pages.indices.map { EPUBTableOfContentsEntry(title: "Page \($0 + 1)", file: pdf, fragment: "page=\($0 + 1)") },
                            coverImage: nil)
        }
        if !isEPUB(folder), let comic = try? ComicBookReader.open(folder: folder) {
            return book(comic)
        }
        return try EPUBReader.open(folder: folder)
    }

    /// A comic book as a book whose articles are its pages; its cover is the first page.
    public static func book(_ comic: ComicBook) -> EPUBBook {
        EPUBBook(title: comic.title, creator: nil, language: nil, version: "comic",
                 articles: comic.pages.map { EPUBArticle(title: $0.title, file: $0.file, mediaType: comicPageMediaType) },
                 tableOfContents: comic.pages.map { EPUBTableOfContentsEntry(title: $0.title, file: $0.file, fragment: "page=\($0.number)") },
                 coverImage: comic.pages.first?.file)
    }

    static func isEPUB(_ folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("META-INF/container.xml").path)
    }

    /// The picture an installed issue offers as its cover when the catalog gives none: a comic book's
    /// first page (nil for EPUB and PDF issues).
    public static func coverPicture(in folder: URL) -> URL? {
        guard !isEPUB(folder), pdfFile(in: folder) == nil else { return nil }
        return (try? ComicBookReader.open(folder: folder))?.pages.first?.file
    }

    /// The PDF an issue folder is made of, when it is not an EPUB.
    public static func pdfFile(in folder: URL) -> URL? {
        let manager = FileManager.default
        guard !manager.fileExists(atPath: folder.appendingPathComponent("META-INF/container.xml").path),
              let name = (try? manager.contentsOfDirectory(atPath: folder.path))?.sorted().first(where: { $0.lowercased().hasSuffix(".pdf") })
        else { return nil }
        return folder.appendingPathComponent(name)
    }

    /// One article's blocks: an XHTML document's, a PDF page's (headed "Page N"), or a comic book
    /// page's (its title, then the picture, named by its file).
    public static func blocks(of book: EPUBBook, article index: Int) throws -> [TextBlock] {
        guard book.articles.indices.contains(index) else { throw DownloadError("no article \(index + 1) in this issue") }
        let article = book.articles[index]
        if article.mediaType == comicPageMediaType {
            return [.heading(level: 2, text: StyledText(article.title)),
                    .image(source: article.file, alt: TextSanitizer.singleLine(article.file.lastPathComponent))]
        }
        if article.mediaType == pdfMediaType {
            do {
                return [.heading(level: 2, text: StyledText(article.title))] + (try PDFDocumentReader(file: article.file).blocks(page: index + 1))
            } catch let error as PDFError { throw DownloadError(error.description) }
        }
        guard let data = FileManager.default.contents(atPath: article.file.path) else {
            throw DownloadError("the file \(article.file.lastPathComponent) is missing from the issue")
        }
        return XHTMLDocumentParser.blocks(from: data, baseURL: article.file)
    }

    /// Every article's blocks, in reading order (a PDF's pages from one `pdftotext` run). For search.
    public static func allBlocks(of book: EPUBBook) throws -> [[TextBlock]] {
        if book.isPDF, let file = book.articles.first?.file {
            do {
                let pages = try PDFDocumentReader(file: file).allPagesText()
                return book.articles.indices.map { index in
                    [.heading(level: 2, text: StyledText(book.articles[index].title))]
                        + (index < pages.count ? PDFDocumentReader.blocks(fromPageText: pages[index]) : [])
                }
            } catch let error as PDFError { throw DownloadError(error.description) }
        }
        return book.articles.indices.map { (try? blocks(of: book, article: $0)) ?? [] }
    }
}

extension EPUBBook {
    /// Whether this is a PDF issue, read page by page.
    public var isPDF: Bool { articles.first?.mediaType == IssueContent.pdfMediaType }

    /// Whether this is a comic book issue (CBZ, CB7, CBT), read a page picture at a time.
    public var isComicBook: Bool { articles.first?.mediaType == IssueContent.comicPageMediaType }

    /// The article a contents entry opens: for a PDF or a comic book the page its `page=N` names (at once,
    /// however many pages), else the first article in the entry's file.
    public func articleIndex(for entry: EPUBTableOfContentsEntry) -> Int? {
        if isPDF || isComicBook, let fragment = entry.fragment, fragment.hasPrefix("page="), let page = Int(fragment.dropFirst(5)) {
            return articles.indices.contains(page - 1) ? page - 1 : nil
        }
        guard let file = entry.file?.standardizedFileURL else { return nil }
        return articles.firstIndex { $0.file.standardizedFileURL == file }
    }
}

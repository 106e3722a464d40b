import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandImaging
import NewsstandUI

/// The reader's slow work, as plain functions `EffectRunner` calls off the UI thread.
public enum ReaderWork {
    /// Draws an article's picture: only an image file inside `issueFolder` (after resolving `..` and
    /// symbolic links), decoded and drawn at the request's size and mode.
    public static func picture(_ request: PictureRequest, issueFolder: URL) -> Result<TextArt, ReaderFailure> {
        pictureData(request.source, issueFolder: issueFolder).flatMap {
            draw($0, columns: request.columns, rows: request.rows, mode: request.mode, background: request.background, cellPixels: request.cellPixels)
        }
    }

    /// The most bytes a picture file of an issue may have to be drawn (a comic book's page scanned at 600 dpi is a few MB).
    public static let maximumPictureBytes = 64 << 20
    /// The most pixels a comic book's page may have to be drawn: 50 megapixels, a magazine page scanned at 600 dpi and more
    /// (decoding one takes at most 200 MB, for the moment it is drawn).
    public static let maximumPagePixels = 50_000_000

    /// Draws a comic book's page (article `index` of `book`): its picture file, only from inside `issueFolder`,
    /// decoded within `maximumPagePixels` and fitted to `columns` × `rows`. Nothing of it is kept but the art.
    public static func comicPage(_ book: EPUBBook, index: Int, issueFolder: URL, columns: Int, rows: Int, mode: CoverArtMode,
                                 background: TerminalBackground, cellPixels: CellPixelSize? = nil) -> Result<TextArt, ReaderFailure> {
        guard book.isComicBook, book.articles.indices.contains(index) else { return .failure(ReaderFailure("this issue has no page \(index + 1)")) }
        return pictureData(book.articles[index].file, issueFolder: issueFolder).flatMap {
            draw($0, columns: columns, rows: rows, mode: mode, background: background, cellPixels: cellPixels, maximumPixels: maximumPagePixels)
        }
    }

    /// The bytes of a picture file: only inside `issueFolder` (after resolving `..` and symbolic links), at most `maximumPictureBytes`.
    static func pictureData(_ source: URL, issueFolder: URL) -> Result<Data, ReaderFailure> {
        guard source.isFileURL else { return .failure(ReaderFailure("the picture is not in the issue")) }
        let folder = issueFolder.standardizedFileURL.resolvingSymlinksInPath().path
        let file = source.standardizedFileURL.resolvingSymlinksInPath()
        guard file.path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") else {
            return .failure(ReaderFailure("the picture is outside the issue"))
        }
        let name = TextSanitizer.singleLine(file.lastPathComponent)
        guard let handle = FileHandle(forReadingAtPath: file.path) else {
            return .failure(ReaderFailure("the picture \(name) is missing from the issue"))
        }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maximumPictureBytes + 1) ?? Data() else {
            return .failure(ReaderFailure("the picture \(name) cannot be read"))
        }
        guard data.count <= maximumPictureBytes else {
            return .failure(ReaderFailure("the picture \(name) is larger than \(maximumPictureBytes >> 20) MiB"))
        }
        return .success(data)
    }

    /// Decodes an image and draws it as text art, or as a terminal picture for cells of `cellPixels`.
    public static func draw(_ data: Data, columns: Int, rows: Int, mode: CoverArtMode, background: TerminalBackground,
                            cellPixels: CellPixelSize? = nil, maximumPixels: Int? = nil) -> Result<TextArt, ReaderFailure> {
        do {
            let size = TextArt.decodingSize(columns: columns, rows: rows, cellPixels: cellPixels)
            let image = try ImageDecoder.decode(data, targetSize: size, maximumPixels: maximumPixels)
            let options = AsciiArtOptions(columns: columns, rows: rows, background: background, mode: mode)
            return .success(TextArt.render(image, options: options, cellPixels: cellPixels))
        } catch {
            return .failure(ReaderFailure("the picture cannot be drawn: \(error)"))
        }
    }

    /// Draws page `page` (1-based) of a PDF issue with pdftoppm, in a temporary folder removed afterwards.
    public static func pdfPage(issueFolder: URL, page: Int, columns: Int, rows: Int, mode: CoverArtMode,
                               background: TerminalBackground, cellPixels: CellPixelSize? = nil) -> Result<TextArt, ReaderFailure> {
        guard let pdf = IssueContent.pdfFile(in: issueFolder) else { return .failure(ReaderFailure("this issue is not a PDF")) }
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-page-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        do {
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            let picture = try PDFDocumentReader(file: pdf).renderPage(page, into: temporary)
            guard let data = FileManager.default.contents(atPath: picture.path) else { return .failure(ReaderFailure("pdftoppm made no picture")) }
            return draw(data, columns: columns, rows: rows, mode: mode, background: background, cellPixels: cellPixels)
        } catch let error as PDFError {
            return .failure(ReaderFailure(error.description))
        } catch {
            return .failure(ReaderFailure("\(error)"))
        }
    }

    /// The blocks of every article that contain `query`, ignoring case (as the article view highlights it).
    public static func matches(of query: String, in articles: [[TextBlock]]) -> [IssueMatch] {
        guard !query.isEmpty else { return [] }
        var matches: [IssueMatch] = []
        for (articleIndex, blocks) in articles.enumerated() {
            for (blockIndex, block) in blocks.enumerated() where searchableText(block).range(of: query, options: .caseInsensitive) != nil {
                matches.append(IssueMatch(articleIndex: articleIndex, blockIndex: blockIndex))
            }
        }
        return matches
    }

    /// A block's text as the reader shows it (a level-1 heading in capitals; case is ignored anyway).
    static func searchableText(_ block: TextBlock) -> String {
        if case .table(let table) = block { return table.rows.map { $0.map(\.plainText).joined(separator: "  ") }.joined(separator: "\n") }
        return block.plainText
    }
}

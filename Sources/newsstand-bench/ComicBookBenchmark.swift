import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandImaging
import NewsstandRuntime
import NewsstandUI

/// Case `cbz`: a generated 500-page comic book (CBZ) installed as the download queue installs it,
/// opened to its first page and read for 100 pages, as the reader does it: each page turn is the
/// key's update, the page picture decoded and drawn (`ReaderWork.comicPage`, the work `EffectRunner`
/// does on its picture queue), the page's blocks, the answers' updates and the frame. Median per
/// page, and memory: resident size after the first page and every 25 pages, and the peak.
struct ComicBookBenchmark {
    var pages = 500
    var turns = 100
    var openRepetitions = 10
    var width = 100
    var height = 40
    /// Distinct page pictures, repeated through the book (decoding cost is the same; generating stays quick).
    var distinctPictures = 8
    var pictureSize = (width: 1200, height: 1800)

    func run() throws {
        var table = ResultTable(title: "Comic book: a \(pages)-page CBZ of \(pictureSize.width)×\(pictureSize.height) pictures, "
                                + "\(width)×\(height) cells, blocks mode")
        let folder = try TemporaryFolder(prefix: "newsstand-bench-cbz")
        defer { folder.remove() }

        for kind in [PictureKind.jpeg, .png] {
            let turns = kind == .jpeg ? self.turns : self.turns / 2
            progress("writing a \(pages)-page CBZ of \(kind.name) pages")
            let archive = folder.url.appendingPathComponent("book-\(kind.name).cbz")
            let archiveSize = try writeBook(archive, kind: kind)

            let issue = Issue(id: 1, publicationID: 1, name: "bench", title: "Bench", date: Date(), contentURLs: [URL(string: "https://example.com/b.cbz")!])
            let destination = folder.url.appendingPathComponent("issues/\(kind.name)", isDirectory: true)
            let (_, installSeconds) = try MonotonicClock.measure {
                try IssueInstaller.install(assets: [archive], sourceURLs: [URL(string: "https://example.com/b.cbz")!], for: issue, into: destination)
            }
            table.add("\(kind.name): install (verify, unpack, fsync, rename)", runs: 1, median: Format.duration(installSeconds),
                      notes: "\(Format.megabytes(Double(archiveSize))) archive, \(Format.count(pages)) pages + ComicInfo.xml")

            ProcessMemory.resetPeakResident()
            let before = ProcessMemory.residentBytes() ?? 0
            var openTimes: [Double] = []
            var reader = ComicReaderDriver(folder: destination, width: width, height: height)
            for _ in 0..<openRepetitions {
                reader = ComicReaderDriver(folder: destination, width: width, height: height)
                let (_, seconds) = try MonotonicClock.measure { try reader.openFirstPage() }
                openTimes.append(seconds)
            }
            table.add("\(kind.name): open → first page drawn", Statistics(openTimes), notes: "IssueContent.openBook + the contents + Enter "
                      + "on them + page 1 decoded, drawn and framed")
            if kind == .jpeg {
                var bookTimes: [Double] = []
                for _ in 0..<openRepetitions {
                    bookTimes.append(try MonotonicClock.measure { try IssueContent.openBook(folder: destination) }.1)
                }
                table.add("  of which IssueContent.openBook", Statistics(bookTimes), notes: "list the folder, sort \(pages) pages naturally, read ComicInfo.xml")
            }

            var turnTimes: [Double] = []
            var resident: [String] = ["after page 1: \(Format.megabytes(Double(ProcessMemory.residentBytes() ?? 0)))"]
            for turn in 1...turns {
                let (_, seconds) = try MonotonicClock.measure { try reader.turnPage() }
                turnTimes.append(seconds)
                if turn % 25 == 0 { resident.append("\(turn + 1): \(Format.megabytes(Double(ProcessMemory.residentBytes() ?? 0)))") }
            }
            guard reader.pageShown == turns else { throw ChildProcess.Failure(description: "the reader is on page \(reader.pageShown + 1), not \(turns + 1)") }
            table.add("\(kind.name): turn a page (Space) → drawn", Statistics(turnTimes), showP99: true,
                      notes: "\(turns) pages: update(key) + decode + draw + update(page) + frame")
            let peak = ProcessMemory.peakResidentBytes() ?? 0
            table.add("\(kind.name): resident memory", runs: nil, median: Format.megabytes(Double(peak)),
                      notes: "peak while reading (VmHWM, reset before opening; \(Format.megabytes(Double(before))) before); "
                      + resident.joined(separator: ", "))
        }
        table.note("one thread: the work EffectRunner does off the UI thread (book, page blocks, ReaderWork.comicPage) runs inline, so the times add up")
        table.note("\(distinctPictures) distinct pictures repeated through the book; JPEGs decode at 1/2 scale (libjpeg-turbo DCT scaling), PNGs in full")
        table.print()
    }

    enum PictureKind {
        case jpeg, png
        var name: String { self == .jpeg ? "JPEG" : "PNG" }
        var fileExtension: String { self == .jpeg ? "jpg" : "png" }
    }

    /// Writes the book (zip, pictures stored as they are) and returns its size in bytes.
    private func writeBook(_ file: URL, kind: PictureKind) throws -> Int64 {
        var pictures: [Data] = []
        for index in 0..<distinctPictures {
            let image = Self.page(width: pictureSize.width, height: pictureSize.height, seed: index)
            pictures.append(kind == .jpeg ? try ImageEncoder.jpeg(image, quality: 85) : try ImageEncoder.png(image))
        }
        var entries: [ArchiveWriter.Entry] = [.file("ComicInfo.xml", Data("""
            <?xml version="1.0"?><ComicInfo><Title>Bench</Title><Series>Generated</Series><Number>1</Number>
            <Pages><Page Image="0" Type="FrontCover"/><Page Image="\(pages - 1)" Type="BackCover"/></Pages></ComicInfo>
            """.utf8))]
        for page in 1...pages {
            // Names that sort wrongly as plain text (page 2 after page 10), in a nested folder.
            entries.append(.file("Generated 001/page\(page).\(kind.fileExtension)", pictures[page % pictures.count]))
        }
        try ArchiveWriter.write(entries, to: file, format: .zip(stored: true))
        return ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// A page-like picture: panels with gradients and circles, different for each seed.
    static func page(width: Int, height: Int, seed: Int) -> RasterImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        let panelHeight = height / 3
        for y in 0..<height {
            let panel = y / max(1, panelHeight)
            for x in 0..<width {
                let index = (y * width + x) * 4
                let inGutter = y % panelHeight < 12 || x < 12 || x >= width - 12 || (panel == 1 && abs(x - width / 2) < 6)
                if inGutter { continue }
                let cx = (seed * 97 + panel * 211) % width, cy = panel * panelHeight + panelHeight / 2
                let dx = x - cx, dy = y - cy
                let inCircle = dx * dx + dy * dy < (panelHeight / 3) * (panelHeight / 3)
                let shade = UInt8((x * 255 / width + y * 64 / height + seed * 40) % 256)
                pixels[index] = inCircle ? 255 - shade : shade
                pixels[index + 1] = UInt8((Int(shade) + panel * 70) % 256)
                pixels[index + 2] = inCircle ? 40 : UInt8((y * 255 / height) % 256)
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels)
    }
}

/// The reader's updates and the runtime's work for a comic book, run on one thread: what the shelf does
/// from Enter on the contents to a page drawn, and on each page turn.
private struct ComicReaderDriver {
    let folder: URL
    var state: AppState
    private var book: EPUBBook?

    init(folder: URL, width: Int, height: Int) {
        self.folder = folder
        state = AppState(width: width, height: height)
        state.coverMode = .blocks
    }

    var pageShown: Int { state.reader?.articleIndex ?? -1 }

    mutating func openFirstPage() throws {
        let book = try IssueContent.openBook(folder: folder)
        self.book = book
        state.screens = [.shelf, .reader(ReaderScreen(issueID: 1))]
        _ = AppUpdate.update(&state, .issueOpened(issueID: 1, .success(book), resumeAt: nil))
        try carryOut(AppUpdate.update(&state, .keyPressed(.enter)))
    }

    mutating func turnPage() throws {
        try carryOut(AppUpdate.update(&state, .keyPressed(.character(" "))))
    }

    /// Does what `EffectRunner` does for the reader's effects, then draws the frame.
    private mutating func carryOut(_ effects: [Effect]) throws {
        guard let book else { return }
        for effect in effects {
            switch effect {
            case .loadArticle(let issueID, let index):
                let blocks = try IssueContent.blocks(of: book, article: index)
                _ = AppUpdate.update(&state, .articleLoaded(issueID: issueID, articleIndex: index, .success(blocks)))
            case .renderPage(let issueID, let index, let columns, let rows, let mode, let background, let cellPixels):
                let art = ReaderWork.comicPage(book, index: index, issueFolder: folder, columns: columns, rows: rows, mode: mode, background: background,
                                               cellPixels: cellPixels)
                guard case .success = art else { throw ChildProcess.Failure(description: "page \(index + 1) was not drawn: \(art)") }
                _ = AppUpdate.update(&state, .pageRendered(issueID: issueID, articleIndex: index, art))
            default:
                continue
            }
        }
        _ = AppView.render(state, theme: .fallback)
    }
}

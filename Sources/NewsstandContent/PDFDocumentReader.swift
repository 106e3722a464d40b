import Foundation

/// Why a PDF could not be read, in plain words.
public struct PDFError: Error, CustomStringConvertible, Equatable, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }

    /// poppler-utils (pdfinfo, pdftotext, pdftoppm) is not installed.
    public static let toolsMissing = PDFError("reading PDF issues needs poppler-utils (apt-get install poppler-utils)")
}

/// What `pdfinfo` says about a document.
public struct PDFInfo: Equatable, Sendable {
    public let pageCount: Int
    /// The document's title, when it has a non-empty one (sanitised).
    public let title: String?
}

/// Reads PDF issues through poppler-utils run as subprocesses, each with a time limit (the child
/// is killed when it runs over): `pdfinfo` for the page count and title, `pdftotext -layout` for a
/// page's text, `pdftoppm -png` for a page's picture. Everything it returns is sanitised.
public struct PDFDocumentReader: Sendable {
    public let file: URL
    /// Seconds each tool may run.
    public let timeout: TimeInterval
    /// Where the tools are looked for, `$PATH`'s syntax (`$PATH` itself when nil).
    public let searchPath: String?

    public init(file: URL, timeout: TimeInterval = 20, searchPath: String? = nil) {
        self.file = file
        self.timeout = timeout
        self.searchPath = searchPath
    }

    /// Whether poppler-utils' `pdftotext` can be found.
    public static func isAvailable(searchPath: String? = nil) -> Bool {
        Subprocess.find("pdftotext", searchPath: searchPath) != nil
    }

    /// The page count and title.
    public func info() throws -> PDFInfo {
        let text = String(decoding: try run("pdfinfo", ["-enc", "UTF-8", file.path]), as: UTF8.self)
        var pages: Int?
        var title: String?
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon]
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if key == "Pages" { pages = Int(value) }
            if key == "Title" { title = TextSanitizer.singleLine(value) }
        }
        guard let pages else { throw PDFError("\(file.lastPathComponent) does not say how many pages it has") }
        return PDFInfo(pageCount: pages, title: title.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The text of page `page` (1-based) as `pdftotext -layout` lays it out, sanitised.
    public func pageText(_ page: Int) throws -> String {
        let data = try run("pdftotext", ["-layout", "-enc", "UTF-8", "-f", "\(page)", "-l", "\(page)", file.path, "-"])
        return TextSanitizer.sanitize(String(decoding: data, as: UTF8.self))
    }

    /// Every page's text in one `pdftotext -layout` run (pages split at form feeds), sanitised.
    public func allPagesText() throws -> [String] {
        let data = try run("pdftotext", ["-layout", "-enc", "UTF-8", file.path, "-"])
        var pages = String(decoding: data, as: UTF8.self).split(separator: "\u{0C}", omittingEmptySubsequences: false).map {
            TextSanitizer.sanitize(String($0))
        }
        if pages.count > 1, pages.last?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == true { pages.removeLast() }
        return pages
    }

    /// Page `page` as blocks (see `PDFDocumentReader.blocks(fromPageText:)`).
    public func blocks(page: Int) throws -> [TextBlock] {
        Self.blocks(fromPageText: try pageText(page))
    }

    /// Renders page `page` as a PNG at `resolution` dots per inch into `folder` and returns its file.
    public func renderPage(_ page: Int, into folder: URL, resolution: Int = 72) throws -> URL {
        let prefix = folder.appendingPathComponent("page-\(page)")
        _ = try run("pdftoppm", ["-png", "-r", "\(resolution)", "-f", "\(page)", "-l", "\(page)", "-singlefile", file.path, prefix.path])
        let picture = prefix.appendingPathExtension("png")
        guard FileManager.default.fileExists(atPath: picture.path) else {
            throw PDFError("pdftoppm made no picture of page \(page) of \(file.lastPathComponent)")
        }
        return picture
    }

    /// Turns one page of `pdftotext -layout` text into blocks. A region set in two columns (a
    /// gutter of blank columns running down several lines with text on both sides) is read left
    /// column first, then right. Chunks between blank lines become paragraphs, split where the
    /// indentation marks a new one: lines that run to about the chunk's full width are joined (a
    /// word broken with a hyphen at a line's end is rejoined); a short line ends with a line break,
    /// so headings, addresses and verse keep their lines. A chunk whose lines are mostly split by
    /// wide gaps (a table) stays verbatim as `.preformatted`. A page number alone at the foot of the
    /// page is dropped.
    public static func blocks(fromPageText pageText: String) -> [TextBlock] {
        var lines = TextSanitizer.sanitize(pageText).split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var line = String(line)
            while line.last == " " { line.removeLast() }
            return line
        }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        if let last = lines.last, last.trimmingCharacters(in: .whitespaces).allSatisfy(\.isNumber) { lines.removeLast() }
        return blocks(lines: lines, depth: 0)
    }

    private static func blocks(lines: [String], depth: Int) -> [TextBlock] {
        guard depth < 4, let region = twoColumnRegion(lines) else { return chunkBlocks(lines) }
        let columns = lines[region.start..<region.end]
        let left = columns.map { line -> String in
            var left = String(line.prefix(region.gutter))
            while left.last == " " { left.removeLast() }
            return left
        }
        let right = columns.map { String($0.dropFirst(region.gutter)) }
        return blocks(lines: Array(lines[..<region.start]), depth: depth + 1) + chunkBlocks(left) + chunkBlocks(right)
            + blocks(lines: Array(lines[region.end...]), depth: depth + 1)
    }

    /// The longest run of lines split by a common gutter (two blank columns) with text on both
    /// sides of it in at least four lines.
    private static func twoColumnRegion(_ lines: [String]) -> (start: Int, end: Int, gutter: Int)? {
        let characters = lines.map(Array.init)
        let longest = characters.map(\.count).max() ?? 0
        guard longest >= 40 else { return nil }
        var best: (score: Int, start: Int, end: Int, gutter: Int)?
        for gutter in 16..<(longest - 12) {
            var start = 0
            var score = 0
            func close(at end: Int) {
                if score >= 4, score > (best?.score ?? 0) { best = (score, start, end, gutter) }
                start = end + 1
                score = 0
            }
            for (index, line) in characters.enumerated() {
                let compatible = line.count < gutter || line[gutter - 1] == " " && (line.count == gutter || line[gutter] == " ")
                guard compatible else {
                    close(at: index)
                    continue
                }
                if line.count > gutter + 1, line[..<gutter].contains(where: { $0 != " " }), line[gutter...].contains(where: { $0 != " " }) {
                    score += 1
                }
            }
            close(at: characters.count)
        }
        guard let best else { return nil }
        return (best.start, min(best.end, lines.count), best.gutter)
    }

    /// Blocks of lines in one column: chunks between blank lines, each a table or paragraphs.
    private static func chunkBlocks(_ lines: [String]) -> [TextBlock] {
        var chunks: [[String]] = []
        var current: [String] = []
        for line in lines {
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                if !current.isEmpty { chunks.append(current); current = [] }
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { chunks.append(current) }
        return chunks.flatMap { chunk -> [TextBlock] in
            let columned = chunk.filter(hasColumnGap).count
            if chunk.count > 1 && columned * 2 > chunk.count || chunk.count == 1 && columned == 1 {
                return [.preformatted(commonIndentRemoved(chunk).joined(separator: "\n"))]
            }
            return paragraphs(chunk).map { .paragraph(StyledText(reflowed($0.lines, widest: $0.widest, least: $0.least))) }
        }
    }

    /// A chunk split where indentation starts a paragraph: a line indented beyond the rest when
    /// most lines are flush (first-line indents), or a flush line when most are indented (hanging indents).
    private static func paragraphs(_ chunk: [String]) -> [(lines: [String], widest: Int, least: Int)] {
        let indents = chunk.map { $0.prefix(while: { $0 == " " }).count }
        let least = indents.min() ?? 0
        let flush = indents.filter { $0 <= least + 1 }.count
        let firstLineIndents = flush * 2 >= chunk.count
        let widest = chunk.map { DisplayWidth.of($0) }.max() ?? 0
        var result: [(lines: [String], widest: Int, least: Int)] = []
        var current: [String] = []
        for (index, line) in chunk.enumerated() {
            let starts = index > 0 && (firstLineIndents ? indents[index] >= least + 2 : indents[index] <= least + 1)
            if starts, !current.isEmpty {
                result.append((current, widest, least))
                current = []
            }
            current.append(line)
        }
        if !current.isEmpty { result.append((current, widest, least)) }
        return result
    }

    /// Whether a line has a gap of three or more spaces between two pieces of text.
    private static func hasColumnGap(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.contains("   ")
    }

    private static func commonIndentRemoved(_ lines: [String]) -> [String] {
        let indent = lines.map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
        return lines.map { line in
            var line = String(line.dropFirst(indent))
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// Lines joined with spaces while they run to about `widest` columns (their raw width, indent
    /// included) and the next line starts near the chunk's left edge (`least`); otherwise (short
    /// lines, centred lines) a line break.
    private static func reflowed(_ chunk: [String], widest: Int, least: Int) -> String {
        let lines = chunk.map { WhitespaceCollapsing.collapse($0) }
        var text = ""
        for (index, line) in lines.enumerated() {
            text += line
            guard index + 1 < lines.count else { break }
            let next = lines[index + 1]
            let full = DisplayWidth.of(chunk[index]) * 4 >= widest * 3 && chunk[index + 1].prefix(while: { $0 == " " }).count <= least + 4
            if full, line.count > 1, line.hasSuffix("-"), line.dropLast().last?.isLowercase == true, next.first?.isLowercase == true {
                text.removeLast()
            } else {
                text += full ? " " : "\n"
            }
        }
        return text
    }

    private func run(_ tool: String, _ arguments: [String]) throws -> Data {
        guard let executable = Subprocess.find(tool, searchPath: searchPath) else { throw PDFError.toolsMissing }
        guard FileManager.default.isReadableFile(atPath: file.path) else { throw PDFError("\(file.lastPathComponent) cannot be read") }
        let output: Subprocess.Output
        do {
            output = try Subprocess.run(executable, arguments, timeout: timeout)
        } catch Subprocess.Failure.timedOut(let seconds) {
            let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
            throw PDFError("\(tool) took longer than \(shown) seconds on \(file.lastPathComponent) and was stopped")
        } catch {
            throw PDFError("\(tool) could not be started: \(error)")
        }
        guard output.status == 0 else {
            let message = TextSanitizer.singleLine(output.standardError)
            if message.lowercased().contains("password") || message.lowercased().contains("encrypt") {
                throw PDFError("\(file.lastPathComponent) is encrypted (password-protected) and cannot be read")
            }
            throw PDFError("\(tool) could not read \(file.lastPathComponent)\(message.isEmpty ? "" : ": \(message)")")
        }
        return output.standardOutput
    }
}

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

    /// Turns one page of `pdftotext -layout` text into blocks. Chunks between blank lines become
    /// paragraphs: lines that run to about the chunk's full width are joined (and a word broken
    /// with a hyphen at a line's end is rejoined); a short line ends with a line break, so
    /// headings, addresses and verse keep their lines. A chunk whose lines are mostly split into
    /// columns by wide gaps (a table, or two columns of text side by side) stays verbatim as
    /// `.preformatted`. A page number alone at the foot of the page is dropped.
    public static func blocks(fromPageText pageText: String) -> [TextBlock] {
        var chunks: [[String]] = []
        var current: [String] = []
        for rawLine in TextSanitizer.sanitize(pageText).split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(rawLine)
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                if !current.isEmpty { chunks.append(current); current = [] }
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { chunks.append(current) }
        if let last = chunks.last, last.count == 1, last[0].trimmingCharacters(in: .whitespaces).allSatisfy(\.isNumber) {
            chunks.removeLast()
        }
        return chunks.map { chunk in
            let columned = chunk.filter(hasColumnGap).count
            if chunk.count > 1 && columned * 2 > chunk.count || chunk.count == 1 && columned == 1 {
                return .preformatted(commonIndentRemoved(chunk).joined(separator: "\n"))
            }
            return .paragraph(StyledText(reflowed(chunk)))
        }
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

    private static func reflowed(_ chunk: [String]) -> String {
        let lines = chunk.map { WhitespaceCollapsing.collapse($0) }
        let widest = lines.map { DisplayWidth.of($0) }.max() ?? 0
        var text = ""
        for (index, line) in lines.enumerated() {
            text += line
            guard index + 1 < lines.count else { break }
            let next = lines[index + 1]
            let full = DisplayWidth.of(line) * 4 >= widest * 3
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

import Foundation
import NewsstandContent
import NewsstandCore

/// `newsstand article URL|FILE [--base URL] [--format text|markdown|json]`: prints the article of a web
/// page (a reader view): fetched through the program's HTTP client (its logins and limits), or read from a
/// saved page, `--base` saying where it came from. A page without an article says so (exit status 1) and
/// prints nothing else, except as JSON, where `readerable` is false. Saves nothing.
enum ArticleCommand {
    struct Output: Encodable {
        let title: String?
        let byline: String?
        let excerpt: String?
        let published: String?
        let siteName: String?
        let lang: String?
        let dir: String?
        let readerable: Bool
        let leadImage: String?
        let text: String
        let blocks: [Block]

        enum CodingKeys: String, CodingKey {
            case title, byline, excerpt, published, siteName, lang, dir, readerable, leadImage, text, blocks
        }

        /// Every field always present: a value the page does not give is null.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(title, forKey: .title)
            try container.encode(byline, forKey: .byline)
            try container.encode(excerpt, forKey: .excerpt)
            try container.encode(published, forKey: .published)
            try container.encode(siteName, forKey: .siteName)
            try container.encode(lang, forKey: .lang)
            try container.encode(dir, forKey: .dir)
            try container.encode(readerable, forKey: .readerable)
            try container.encode(leadImage, forKey: .leadImage)
            try container.encode(text, forKey: .text)
            try container.encode(blocks, forKey: .blocks)
        }
    }

    /// One block: its type (heading, paragraph, list_item, quote, code, picture, caption, table, footnote,
    /// rule), its text without link numbers, and what else the type has.
    struct Block: Encodable {
        var type: String
        var text: String?
        var level: Int?
        var depth: Int?
        var marker: String?
        var number: Int?
        var source: String?
        var rows: [[String]]?
        var links: [Link]?
    }

    struct Link: Encodable {
        let number: Int
        let url: String
    }

    /// What `--format` takes (also what completion offers).
    enum Format: String, CaseIterable {
        case text, markdown, json
    }

    static func run(_ arguments: inout ArgumentList) throws {
        let base = arguments.option("--base")
        let formatName = arguments.option("--format") ?? Format.text.rawValue
        let text = try arguments.positional("URL or saved page")
        try arguments.finish()
        guard let format = Format(rawValue: formatName) else {
            throw UsageError("--format takes text, markdown or json, not '\(formatName)'")
        }
        guard let url = SubscriptionURL.parse(text) else { throw UsageError("'\(text)' is neither an http(s) URL nor a file") }
        var baseURL: URL?
        if let base {
            guard let parsed = URL(string: base), let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
                throw UsageError("--base takes an http or https URL, not '\(base)'")
            }
            baseURL = parsed
        }
        let paths = LibraryPaths.fromEnvironment(ProcessInfo.processInfo.environment)
        let client = HTTPClient(credentials: CredentialStore(paths: paths))
        let article: ExtractedArticle
        do {
            article = try ArticlePageFetcher.article(at: url, base: baseURL, client: client)
        } catch let error as HTTPError {
            if case .loginRequired = error {
                throw CommandFailure("cannot read \(url.absoluteString): \(error); save one with `newsstand login \(url.absoluteString)`")
            }
            throw CommandFailure("cannot read \(url.absoluteString): \(error)")
        } catch {
            throw CommandFailure("cannot read \(url.isFileURL ? url.path : url.absoluteString): \(error)")
        }
        let source = baseURL ?? (url.isFileURL ? nil : url)
        if format == .json {
            try JSONOutput.print(output(article), snakeCase: true)
            return
        }
        guard article.readerable else {
            throw CommandFailure("\(source?.absoluteString ?? url.path) has no article to read (a front page, a list of links or an empty page)")
        }
        if format == .markdown {
            print(ArticleMarkdown.render(article, source: source), terminator: "")
            return
        }
        var header: [String] = []
        if let title = article.title { header.append(title) }
        let about = [article.byline, article.published, article.siteName].compactMap { $0 }
        if !about.isEmpty { header.append(about.joined(separator: " · ")) }
        if let source { header.append(source.absoluteString) }
        if !header.isEmpty { print(header.joined(separator: "\n") + "\n") }
        print(article.text)
    }

    static func output(_ article: ExtractedArticle) -> Output {
        Output(title: article.title, byline: article.byline, excerpt: article.excerpt, published: article.published,
               siteName: article.siteName, lang: article.lang, dir: article.dir, readerable: article.readerable,
               leadImage: article.leadImage?.absoluteString, text: article.text, blocks: article.blocks.map(block))
    }

    static func block(_ block: TextBlock) -> Block {
        func links(_ text: StyledText) -> [Link]? {
            var seen = Set<Int>()
            let found = text.runs.compactMap(\.link).filter { seen.insert($0.number).inserted }.map { Link(number: $0.number, url: $0.url.absoluteString) }
            return found.isEmpty ? nil : found
        }
        func plain(_ text: StyledText) -> String { ExtractedArticle.withoutLinkNumbers(text) }
        switch block {
        case .heading(let level, let text): return Block(type: "heading", text: plain(text), level: level, links: links(text))
        case .paragraph(let text): return Block(type: "paragraph", text: plain(text), links: links(text))
        case .listItem(let depth, let marker, let text): return Block(type: "list_item", text: plain(text), depth: depth, marker: marker, links: links(text))
        case .quote(let text): return Block(type: "quote", text: plain(text), links: links(text))
        case .preformatted(let text): return Block(type: "code", text: text)
        case .image(let source, let alt): return Block(type: "picture", text: alt, source: source?.absoluteString)
        case .caption(let text): return Block(type: "caption", text: plain(text), links: links(text))
        case .table(let table):
            return Block(type: "table", rows: table.rows.map { $0.map(plain) }, links: links(StyledText(table.rows.flatMap { $0.flatMap(\.runs) })))
        case .footnote(let number, let text): return Block(type: "footnote", text: plain(text), number: number, links: links(text))
        case .rule: return Block(type: "rule")
        }
    }
}

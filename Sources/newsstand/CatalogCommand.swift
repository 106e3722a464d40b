import Foundation
import NewsstandContent
import NewsstandCore

/// `newsstand catalog URL [--search TEXT] [--json]`: one page of a catalog, for scripts — its navigation
/// entries, its issues with their acquisition formats, its facets, how it is searched, and the next page.
/// Saves nothing.
enum CatalogCommand {
    struct Page: Encodable {
        let url: String
        let title: String?
        let format: String
        let navigation: [Navigation]
        let entries: [Entry]
        let facets: [Facet]
        let search: String?
        let nextPage: String?
        let problems: [String]
    }

    struct Navigation: Encodable {
        let title: String
        let url: String
        let rel: String?
        let summary: String?
    }

    struct Entry: Encodable {
        let name: String
        let title: String
        let date: String
        let summary: String?
        let acquisitions: [Acquisition]
        let cover: String?
        /// OPDS-PSE: the page URL template (`{pageNumber}` from 0) and the page count.
        let pageStream: PageStream?
    }

    struct PageStream: Encodable {
        let template: String
        let pages: Int
        let type: String?
        /// `pse:lastRead`: the last page read, counted from 1.
        let lastRead: Int?
    }

    struct Acquisition: Encodable {
        let url: String
        let type: String?
        let size: Int64?
    }

    struct Facet: Encodable {
        let group: String
        let title: String
        let url: String
        let active: Bool
        let count: Int?
    }

    static func run(_ arguments: inout ArgumentList) throws {
        let json = arguments.flag("--json")
        let terms = arguments.option("--search")
        let text = try arguments.positional("URL of a catalog")
        try arguments.finish()
        guard let url = SubscriptionURL.parse(text) else { throw CommandFailure("only http, https and file URLs (or a path) are catalogs") }
        let context = try LibraryContext.open()
        let pages = CatalogPages(client: context.client)
        let origin = DocumentOrigin(documentURL: url)
        let shown: URL
        let feed: Feed
        do {
            if let terms {
                let root = try pages.page(at: url, from: origin)
                (shown, feed) = try pages.search(terms, in: root, from: origin)
            } else {
                (shown, feed) = (url, try pages.page(at: url, from: origin))
            }
        } catch let error as HTTPError {
            if case .loginRequired = error {
                throw CommandFailure("cannot read \(url.absoluteString): \(error); save one with `newsstand login \(url.absoluteString)`")
            }
            throw CommandFailure("cannot read \(url.absoluteString): \(error)")
        } catch {
            throw CommandFailure("cannot read \(url.absoluteString): \(error)")
        }
        let page = describe(feed, url: shown)
        if json {
            try JSONOutput.print(page, snakeCase: true)
        } else {
            print(plain(page))
        }
    }

    /// The page with every text made one safe line (nothing from the network reaches the terminal as a control).
    static func describe(_ feed: Feed, url: URL) -> Page {
        let formatter = ISO8601DateFormatter()
        let search: String? = switch feed.search {
        case .template(let template)?: line(template)
        case .description(let description)?: line(description.absoluteString)
        case nil: nil
        }
        return Page(
            url: line(url.absoluteString), title: feed.title.map(line), format: feed.format.rawValue,
            navigation: feed.navigation.map {
                Navigation(title: line($0.title), url: line($0.url.absoluteString), rel: $0.rel.isEmpty ? nil : line($0.rel),
                           summary: $0.summary.isEmpty ? nil : line($0.summary))
            },
            entries: feed.entries.map { entry in
                let urls = entry.contentURLTexts
                return Entry(name: line(entry.name), title: line(entry.title), date: formatter.string(from: entry.date),
                             summary: entry.summary.isEmpty ? nil : line(entry.summary),
                             acquisitions: urls.indices.map { index in
                                 Acquisition(url: line(urls[index]), type: entry.contentTypes.indices.contains(index) ? line(entry.contentTypes[index]) : nil,
                                             size: entry.contentLengths.indices.contains(index) ? entry.contentLengths[index] : (urls.count == 1 ? entry.expectedSize : nil))
                             },
                             cover: entry.coverURLText.map(line),
                             pageStream: entry.pageStream.map { PageStream(template: line($0.template), pages: $0.pageCount, type: $0.type.map(line), lastRead: $0.lastRead) })
            },
            facets: feed.facets.map { Facet(group: line($0.group), title: line($0.title), url: line($0.url.absoluteString), active: $0.isActive, count: $0.count) },
            search: search, nextPage: feed.nextPage.map { line($0.absoluteString) }, problems: feed.problems.map(line))
    }

    private static func line(_ text: String) -> String { TextSanitizer.singleLine(text) }

    static func plain(_ page: Page) -> String {
        var lines = [page.title ?? page.url, page.url + " (\(page.format))"]
        if let search = page.search { lines.append("search: \(search)") }
        for link in page.navigation { lines.append("▸ \(link.title)\t\(link.url)") }
        for entry in page.entries {
            let formats = entry.acquisitions.map { acquisition in
                (acquisition.type ?? "untyped") + (acquisition.size.map { " \($0) bytes" } ?? "") + " " + acquisition.url
            }
            lines.append("  \(entry.title)\t\(entry.date.prefix(10))\t\(entry.name)\t" + formats.joined(separator: "; ")
                         + (entry.pageStream.map { "; page stream (\($0.pages) pages) \($0.template)" } ?? ""))
        }
        for facet in page.facets {
            lines.append("facet: " + (facet.group.isEmpty ? "" : facet.group + ": ") + facet.title + (facet.active ? " (shown)" : "")
                         + (facet.count.map { " [\($0)]" } ?? "") + "\t" + facet.url)
        }
        if page.navigation.isEmpty && page.entries.isEmpty { lines.append("(nothing listed)") }
        if let next = page.nextPage { lines.append("next page: \(next)") }
        for problem in page.problems { lines.append("note: \(problem)") }
        return lines.joined(separator: "\n")
    }
}

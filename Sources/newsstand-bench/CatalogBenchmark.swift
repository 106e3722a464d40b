import Foundation
import LocalHTTPServer
import NewsstandCore
import NewsstandUI

/// Case `catalog`: the catalog browser paging through a 50,000-entry OPDS catalog (500 pages of 100, served by
/// `LocalHTTPServer` on 127.0.0.1 from memory) to its 100th page, as the shelf does it: `G` brings the
/// selection to the end, the `.loadCatalogPage` effect is carried out (fetch and parse one page, as the runtime
/// does with `CatalogPages`), the answer goes through `AppUpdate`, and the frame is rendered. Per page: the
/// time to fetch and parse, and to update and render; the resident memory after pages 1, 10, 50 and 100 (the
/// browser keeps at most `CatalogScreen.maxEntries` issues, so it should stay flat) and the peak.
struct CatalogBenchmark {
    var entries = 50_000
    var perPage = 100
    var pagesToBrowse = 100

    func run() throws {
        let pageCount = entries / perPage
        var table = ResultTable(title: "Catalog browsing: \(Format.count(entries)) entries in \(pageCount) pages of \(perPage), to page \(pagesToBrowse)")
        let server = LocalHTTPServer()
        try server.start()
        defer { server.stop() }
        progress("serving a \(Format.count(entries))-entry catalog, browsing \(pagesToBrowse) pages")
        var servedBytes = 0
        for page in 0..<pageCount {
            let data = Self.page(page, of: pageCount, perPage: perPage)
            servedBytes += data.count
            server.setResource(page == 0 ? "/catalog" : "/catalog?page=\(page)", data: data, contentType: "application/atom+xml")
        }
        let root = server.url(for: "/catalog")
        let pages = CatalogPages()
        let theme = Theme.fallback

        let peakReset = ProcessMemory.resetPeakResident()
        let residentBefore = ProcessMemory.residentBytes()
        var state = AppState(width: 100, height: 30)
        state.screens.append(.catalog(CatalogScreen(url: root)))
        var fetchTimes: [Double] = []
        var updateTimes: [Double] = []
        var resident: [(page: Int, bytes: Int)] = []

        let (first, firstSeconds) = try MonotonicClock.measure { try pages.page(at: root, from: DocumentOrigin(documentURL: root)) }
        fetchTimes.append(firstSeconds)
        var (effects, seconds) = MonotonicClock.measure { () -> [Effect] in
            var effects = AppUpdate.update(&state, .feedLoaded(root, .success(first)))
            effects += AppUpdate.update(&state, .keyPressed(.character("G")))
            _ = AppView.render(state, theme: theme)
            return effects
        }
        updateTimes.append(seconds)
        var browsed = 1
        if let bytes = ProcessMemory.residentBytes() { resident.append((1, bytes)) }
        while browsed < pagesToBrowse {
            guard case .loadCatalogPage(let next)? = effects.first(where: { if case .loadCatalogPage = $0 { true } else { false } }) else {
                throw ChildProcess.Failure(description: "page \(browsed): the browser asked for no next page (\(effects))")
            }
            let (feed, fetchSeconds) = try MonotonicClock.measure { try pages.page(at: next, from: DocumentOrigin(documentURL: root)) }
            fetchTimes.append(fetchSeconds)
            (effects, seconds) = MonotonicClock.measure { () -> [Effect] in
                var effects = AppUpdate.update(&state, .catalogPageLoaded(next, .success(feed)))
                effects += AppUpdate.update(&state, .keyPressed(.character("G")))
                _ = AppView.render(state, theme: theme)
                return effects
            }
            updateTimes.append(seconds)
            browsed += 1
            if [1, 10, 50, 100].contains(browsed), let bytes = ProcessMemory.residentBytes() { resident.append((browsed, bytes)) }
        }
        guard case .catalog(let browser)? = state.screens.last, let page = browser.current else {
            throw ChildProcess.Failure(description: "the catalog browser is gone")
        }
        let expectedLast = "Entry \(browsed * perPage - 1)"
        guard page.feed?.entries.last?.title == expectedLast else {
            throw ChildProcess.Failure(description: "expected the last row to be \(expectedLast), got \(page.feed?.entries.last?.title ?? "none")")
        }

        table.add("fetch + parse one page", Statistics(fetchTimes), notes: "\(perPage) entries, about \(servedBytes / pageCount / 1024) KB a page")
        table.add("update + render", Statistics(updateTimes),
                  notes: "browser holds \(Format.count(page.rowCount)) rows, \(Format.count(page.droppedEntries)) earlier entries dropped")
        let firstTen = Statistics(Array(fetchTimes.prefix(10)).enumerated().map { $0.element + updateTimes[$0.offset] })
        let lastTen = Statistics(Array(fetchTimes.suffix(10)).enumerated().map { $0.element + updateTimes[updateTimes.count - 10 + $0.offset] })
        table.add("pages 1–10, whole step", firstTen)
        table.add("pages 91–100, whole step", lastTen, notes: "flat when about the same as pages 1–10")
        var memory = resident.map { "page \($0.page): \(Format.megabytes(Double($0.bytes)))" }.joined(separator: ", ")
        if let peak = ProcessMemory.peakResidentBytes() {
            memory += "; peak \(Format.megabytes(Double(peak)))"
            if peakReset, let residentBefore { memory += " (+\(Format.megabytes(Double(max(0, peak - residentBefore)))) while browsing)" }
        }
        table.note("resident memory after " + memory)
        table.note("the process also holds the served catalog (\(Format.megabytes(Double(servedBytes)))), set up before the figures are taken")
        table.print()
    }

    /// Page `number` of the catalog: 100 entries with an EPUB acquisition, cover and summary; `next` but on the last.
    static func page(_ number: Int, of count: Int, perPage: Int) -> Data {
        var text = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog">
            <id>urn:bench:catalog</id><title>Bench Catalog</title><updated>2026-01-01T00:00:00Z</updated>
            <link rel="search" type="application/atom+xml" href="/search/{searchTerms}"/>

            """
        if number + 1 < count {
            text += "<link rel=\"next\" type=\"application/atom+xml;profile=opds-catalog;kind=acquisition\" href=\"/catalog?page=\(number + 1)\"/>\n"
        }
        for index in number * perPage..<(number + 1) * perPage {
            let day = 1 + index % 28
            text += """
                <entry><title>Entry \(index)</title><id>urn:bench:\(index)</id>
                <updated>2025-01-\(day < 10 ? "0" : "")\(day)T00:00:00Z</updated><author><name>Author \(index % 97)</name></author>
                <summary>Issue \(index) of the bench catalog: a short summary such as catalogs give.</summary>
                <link rel="http://opds-spec.org/acquisition" type="application/epub+zip" href="/get/epub/\(index)" length="\(100_000 + index)"/>
                <link rel="http://opds-spec.org/image" type="image/jpeg" href="/get/cover/\(index)"/></entry>

                """
        }
        text += "</feed>\n"
        return Data(text.utf8)
    }
}

import Foundation

/// Reads OPDS 2.0 JSON: `publications` (with `links`, `images`, `metadata`), `navigation`, `groups`
/// (their publications and navigation, flattened in order), `catalogs` (library registries, as
/// navigation), and the feed's `next` link. A lone publication document reads as a one-entry feed.
enum OPDS2Parser {
    static func parse(_ data: Data, url: URL) throws -> Feed {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw CatalogError("the OPDS 2 feed is not a JSON object")
        }
        let metadata = root["metadata"] as? [String: Any] ?? [:]
        var feed = Feed(format: .opds2, title: string(metadata["title"]).map(FeedText.plain))
        let links = root["links"] as? [[String: Any]] ?? []
        feed.nextPage = links.first { rels($0).contains("next") }.flatMap { resolve($0["href"], url) }
        feed.start = links.first { rels($0).contains("start") }.flatMap { resolve($0["href"], url) }
        if let search = links.first(where: { rels($0).contains("search") }), let href = search["href"] as? String {
            if href.contains("{"), let template = SearchTemplate.normalize(href, base: url) {
                feed.search = .template(template)
            } else if (search["type"] as? String ?? "").contains("opensearchdescription"), let target = resolve(href, url) {
                feed.search = .description(target)
            }
        }
        for facet in root["facets"] as? [[String: Any]] ?? [] {
            let group = string((facet["metadata"] as? [String: Any])?["title"]).map(FeedText.plain) ?? ""
            for link in facet["links"] as? [[String: Any]] ?? [] {
                guard let target = resolve(link["href"], url) else { continue }
                let properties = link["properties"] as? [String: Any] ?? [:]
                feed.facets.append(CatalogFacet(group: group, title: string(link["title"]).map(FeedText.plain) ?? target.absoluteString, url: target,
                                                isActive: rels(link).contains("self"),
                                                count: (properties["numberOfItems"] as? NSNumber)?.intValue))
            }
        }
        let fallbackDate = string(metadata["modified"]).flatMap(FlexibleDateParser.parse) ?? Date(timeIntervalSince1970: 0)

        var seen: Set<String> = []
        func add(publications: [[String: Any]]) {
            for (position, publication) in publications.enumerated() {
                addPublication(publication, position: position, to: &feed, seen: &seen, base: url, fallbackDate: fallbackDate)
            }
        }
        func add(navigation: [[String: Any]]) {
            for link in navigation {
                guard let target = resolve(link["href"], url) else { continue }
                var navigationLink = NavigationLink(title: string(link["title"]).map(FeedText.plain) ?? target.absoluteString, url: target)
                navigationLink.rel = rels(link).first ?? ""
                feed.navigation.append(navigationLink)
            }
        }

        if root["publications"] == nil && root["navigation"] == nil && root["groups"] == nil && root["catalogs"] == nil
            && root["metadata"] != nil && (root["links"] != nil || root["images"] != nil) {
            // A single publication document.
            feed.title = nil
            feed.nextPage = nil
            add(publications: [root])
            return feed
        }
        add(navigation: root["navigation"] as? [[String: Any]] ?? [])
        add(publications: root["publications"] as? [[String: Any]] ?? [])
        for group in root["groups"] as? [[String: Any]] ?? [] {
            add(navigation: group["navigation"] as? [[String: Any]] ?? [])
            add(publications: group["publications"] as? [[String: Any]] ?? [])
        }
        for catalog in root["catalogs"] as? [[String: Any]] ?? [] {
            let catalogMetadata = catalog["metadata"] as? [String: Any] ?? [:]
            let catalogLinks = catalog["links"] as? [[String: Any]] ?? []
            let link = catalogLinks.first { ($0["type"] as? String)?.contains("opds+json") == true || rels($0).contains("http://opds-spec.org/catalog") }
                ?? catalogLinks.first { !rels($0).contains("self") }
            guard let target = link.flatMap({ resolve($0["href"], url) }) else { continue }
            feed.navigation.append(NavigationLink(title: string(catalogMetadata["title"]).map(FeedText.plain) ?? target.absoluteString, url: target,
                                                  summary: string(catalogMetadata["description"]).map(FeedText.html) ?? ""))
        }
        return feed
    }

    private static func addPublication(_ publication: [String: Any], position: Int, to feed: inout Feed, seen: inout Set<String>,
                                       base: URL, fallbackDate: Date) {
        let metadata = publication["metadata"] as? [String: Any] ?? [:]
        let links = publication["links"] as? [[String: Any]] ?? []
        let title = string(metadata["title"]).map(FeedText.plain) ?? ""
        let summary = string(metadata["description"]).map(FeedText.html) ?? ""
        let date = (string(metadata["published"]) ?? string(metadata["modified"])).flatMap(FlexibleDateParser.parse)

        // Acquisition links, as FeedDocument links so the OPDS 1 choice applies.
        let acquisitions: [FeedDocument.Link] = links.compactMap { link in
            guard let rel = rels(link).first(where: { $0.hasPrefix("http://opds-spec.org/acquisition") }),
                  let target = resolve(link["href"], base) else { return nil }
            var types: [String] = []
            var indirect = (link["properties"] as? [String: Any])?["indirectAcquisition"] as? [[String: Any]]
            while let first = indirect?.first {
                if let type = first["type"] as? String { types.append(type) }
                indirect = first["child"] as? [[String: Any]]
            }
            return FeedDocument.Link(url: LazyURL(target), rel: rel, type: link["type"] as? String, indirectTypes: types)
        }
        let images = publication["images"] as? [[String: Any]] ?? []
        let image = images.max { (($0["width"] as? NSNumber)?.intValue ?? 0) < (($1["width"] as? NSNumber)?.intValue ?? 0) }
        let cover = (image ?? images.first).flatMap { resolve($0["href"], base) }

        let best = FeedParser.bestAcquisition(acquisitions)
        // An audiobook or a video is never queued as an issue: the publication is a headline naming its file.
        let media = best.flatMap { link -> (URL, String)? in
            guard case .other(let kind) = ContentKind.of(type: link.indirectTypes.last ?? link.type, link: link.url.absoluteString) else { return nil }
            return (link.url.url, kind)
        }
        if let acquisition = best, media == nil {
            let name = FeedParser.issueName(string(metadata["identifier"]) ?? acquisition.url.absoluteString)
            guard !name.isEmpty else { return }
            guard seen.insert(name).inserted else {
                feed.problems.append("issue '\(name)' is listed twice; the first is kept")
                return
            }
            let type = acquisition.indirectTypes.last ?? acquisition.type
            var entry = CatalogEntry(name: name, title: title.isEmpty ? name : title, date: date ?? fallbackDate, summary: summary,
                                     coverLink: cover.map(LazyURL.init), contentLinks: [acquisition.url], contentTypes: type.map { [$0] } ?? [])
            entry.acquisitions = AcquisitionLink.all(in: acquisitions)
            feed.entries.append(entry)
        } else {
            let link = links.first { rels($0).contains("alternate") || rels($0).contains("self") }.flatMap { resolve($0["href"], base) }
            guard let shown = title.isEmpty ? (link ?? media?.0)?.absoluteString : title else {
                feed.problems.append("publication #\(position + 1) has no title and no links")
                return
            }
            feed.headlines.append(Headline(title: shown, link: link, date: date, summary: summary, mediaURL: media?.0, mediaKind: media?.1))
        }
    }

    private static func rels(_ link: [String: Any]) -> [String] {
        switch link["rel"] {
        case let rel as String: [rel]
        case let rels as [String]: rels
        default: []
        }
    }

    private static func string(_ value: Any?) -> String? {
        switch value {
        case let text as String: text
        case let number as NSNumber: number.stringValue
        case let localized as [String: Any]: (localized["en"] ?? localized.values.first).flatMap { $0 as? String }
        default: nil
        }
    }

    private static func resolve(_ href: Any?, _ base: URL) -> URL? {
        guard let text = href as? String else { return nil }
        return CatalogParser.resolve(text, against: base)
    }
}

import Foundation

extension Feed {
    /// The feed with only the references `origin` lets Newsstand follow, each one left out named in `problems`.
    ///
    /// Links that lead somewhere when chosen — the next page, the start, navigation entries, facets, the search
    /// template or description, an item's page and media file (handed to the browser or the player), an entry's
    /// acquisition links, cover and OPDS-PSE page stream — are dropped. An issue's content links stay, so the
    /// issue is listed and its download says why it is refused (`AssetTransfer` asks the same origin); the
    /// problem says so at once. A link kept as text (`LazyURL`) is a plain http(s) link and is never looked at again.
    public func keepingReferences(admittedBy origin: DocumentOrigin) -> Feed {
        var feed = self
        var refused = RefusedReferences()
        func admitted(_ url: URL?, _ what: @autoclosure () -> String) -> URL? {
            guard let url else { return nil }
            guard let reason = origin.refusal(of: url) else { return url }
            refused.add(what(), reason)
            return nil
        }
        func admitted(_ link: LazyURL?, _ what: @autoclosure () -> String) -> LazyURL? {
            guard let link else { return nil }
            if link.isDeferred { return link }
            return admitted(link.url, what()).map { _ in link }
        }

        feed.nextPage = admitted(nextPage, "the next page")
        feed.start = admitted(start, "the catalog's start")
        if navigation.contains(where: { !origin.admits($0.url) }) {
            feed.navigation = navigation.filter { admitted($0.url, "the link '\($0.title)'") != nil }
        }
        if facets.contains(where: { !origin.admits($0.url) }) {
            feed.facets = facets.filter { admitted($0.url, "the view '\($0.title)'") != nil }
        }
        switch search {
        case .description(let url)?:
            if admitted(url, "the search") == nil { feed.search = nil }
        case .template(let template)?:
            if let url = SearchTemplate.fill(template, with: "terms"), admitted(url, "the search") == nil { feed.search = nil }
        case nil:
            break
        }
        // Written only where something is refused, so a feed that points nowhere it should is never copied.
        for (index, headline) in headlines.enumerated() {
            if let link = headline.link, admitted(link, "the link of '\(headline.title)'") == nil { feed.headlines[index].link = nil }
            if let media = headline.mediaURL, admitted(media, "the file of '\(headline.title)'") == nil {
                feed.headlines[index].mediaURL = nil
                feed.headlines[index].mediaKind = nil
            }
        }
        for index in entries.indices {
            let entry = entries[index]
            for link in entry.contentLinks where !link.isDeferred {
                if let reason = origin.refusal(of: link.url) {
                    refused.add("issue '\(entry.name)'", reason + "; it cannot be downloaded")
                    break
                }
            }
            if let cover = entry.coverLink, admitted(cover, "the cover of '\(entry.name)'") == nil { feed.entries[index].coverLink = nil }
            if entry.acquisitions.contains(where: { !$0.link.isDeferred && !origin.admits($0.link.url) }) {
                feed.entries[index].acquisitions = entry.acquisitions.filter { admitted($0.link, "a link of '\(entry.name)'") != nil }
            }
            if let stream = entry.pageStream, !Self.isWebText(stream.template), let url = stream.url(forPage: 0),
               admitted(url, "the pages of '\(entry.name)'") == nil {
                feed.entries[index].pageStream = nil
            }
        }
        if refused.hasAny { feed.problems += refused.problems }
        return feed
    }

    /// Whether `text` starts `http://` or `https://` as an absolute URL's text does: what follows is no concern here.
    private static func isWebText(_ text: String) -> Bool {
        text.hasPrefix("http://") || text.hasPrefix("https://")
    }
}

/// References a feed may not point to, summed up so that a feed of ten thousand makes a few lines.
private struct RefusedReferences {
    private var first: [String: String] = [:]
    private var counts: [String: Int] = [:]
    private var reasons: [String] = []

    mutating func add(_ what: String, _ reason: String) {
        if first[reason] == nil {
            first[reason] = what
            reasons.append(reason)
        }
        counts[reason, default: 0] += 1
    }

    var hasAny: Bool { !reasons.isEmpty }

    var problems: [String] {
        reasons.map { reason in
            let more = counts[reason, default: 1] - 1
            return "\(first[reason]!)\(more > 0 ? " (and \(more) more)" : ""): \(reason)"
        }
    }
}

import Foundation

/// Maps an XML feed's items onto issues, headlines and navigation links as `XMLFeedReader`
/// finishes each one, so that a long feed's items are never all held: only what the feed gives
/// (`Feed`) grows with it. The rules are `FeedParser.build`'s, and so is the result, whatever the
/// order of the feed's parts:
///
/// - An item's kind depends on the feed's format only when it has no content (a Newsstand Atom
///   item is an issue even then), and an Atom feed's format is known for sure only at its end (a
///   `news:` element may come late). From the first such item on, items are kept whole and mapped
///   at the end, in order (so the first of two issues with one name is still the one kept).
/// - An issue without a date takes the feed's (`updated`, else `published`), and one without a
///   cover the feed's image: both are filled in at the end, when the feed's own elements are known.
///
/// One feed per assembler, on the reader's thread. (Its state is touched for every item, never by
/// overlapping accesses: dynamic exclusivity checks are off, as in `XMLFeedReader`.)
final class FeedAssembler {
    private let detected: FeedFormat
    @exclusivity(unchecked) private var entries: [CatalogEntry] = []
    @exclusivity(unchecked) private var headlines: [Headline] = []
    @exclusivity(unchecked) private var navigation: [NavigationLink] = []
    @exclusivity(unchecked) private var problems: [String] = []
    /// The hash of each entry's name, in order: a name an earlier entry has is found at the end (`RepeatedNames`).
    @exclusivity(unchecked) private var nameHashes: [Int] = []
    /// Items mapped or held so far (for "item #N" in problems).
    @exclusivity(unchecked) private var position = 0
    /// Entries that take the feed's date, and that take the feed's image, once it is read.
    @exclusivity(unchecked) private var undated: [Int] = []
    @exclusivity(unchecked) private var uncovered: [Int] = []
    /// The last asset type `kind(url:type:)` judged, and what it tells (nil: none yet). Two fields, not an optional
    /// tuple: reading the tuple copied both, a retain and a release for every asset.
    @exclusivity(unchecked) private var lastKindType: String?
    @exclusivity(unchecked) private var lastKindByType: ContentKind?
    /// The last entry's content types with any.
    @exclusivity(unchecked) private var lastTypes: [String] = []
    /// The last entry's content lengths as the feed wrote them, and as numbers.
    @exclusivity(unchecked) private var lastLengthTexts: [String?] = []
    @exclusivity(unchecked) private var lastLengths: [Int64?] = []
    /// The content assets of the item being mapped (kept from one item to the next).
    @exclusivity(unchecked) private var assets: [FeedParser.Asset] = []
    /// Items kept until the feed's format is known, in document order.
    @exclusivity(unchecked) private var held: [FeedDocument.Item] = []

    init(detected: FeedFormat) {
        self.detected = detected
    }

    /// Items held whole so far (for tests: none when every item's kind is known as it ends).
    var heldItems: Int { held.count }

    /// The format as far as it is certain while the feed is still being read: only an Atom-family
    /// root can still change it.
    private func settledFormat(atomFamily: Bool, sawNewsstand: Bool) -> FeedFormat? {
        if !atomFamily { return detected }
        return sawNewsstand ? .newsstandAtom : nil
    }

    /// Maps `item`, just read, or holds it when its kind depends on what is still to come.
    /// `atomFamily` (the root is `feed` or `entry`) and `sawNewsstand` are the document's so far. `markup`,
    /// valid during the call, is the item's `markup` as bytes when the reader kept it so (made into a String
    /// only if the item is held or becomes a headline).
    /// The item is read in place (`inout` so that it is not copied on the way); its texts may be taken out of it.
    /// `completeLinks` puts into a copy of it the page links the reader kept aside (an item's `link` and
    /// `alternate` link, which only a held item and a headline use).
    func add(_ item: inout FeedDocument.Item, markup: UnsafeBufferPointer<UInt8>? = nil, atomFamily: Bool, sawNewsstand: Bool,
             completeLinks: (inout FeedDocument.Item) -> Void = { _ in }) {
        let format = settledFormat(atomFamily: atomFamily, sawNewsstand: sawNewsstand)
        if !held.isEmpty {
            guard let format else {
                hold(item, markup: markup, completeLinks: completeLinks)
                return
            }
            release(format: format)
        }
        FeedParser.contentAssets(item, into: &assets)
        if assets.isEmpty && format == nil {
            hold(item, markup: markup, completeLinks: completeLinks)
            return
        }
        place(&item, markup: markup, format: format, completeLinks: completeLinks)
    }

    private func hold(_ item: FeedDocument.Item, markup: UnsafeBufferPointer<UInt8>?, completeLinks: (inout FeedDocument.Item) -> Void) {
        var kept = item
        completeLinks(&kept)
        if let markup { kept.markup = String(decoding: markup, as: UTF8.self) }
        held.append(kept)
    }

    /// Maps the held items now that `format` is certain.
    private func release(format: FeedFormat) {
        let items = held
        held = []
        for var item in items {
            FeedParser.contentAssets(item, into: &assets)
            place(&item, format: format)
        }
    }

    /// `ContentKind.of(type:link:)` for a file of `type` at `url`. What its type alone tells is kept for the next
    /// file with the same type (a feed's enclosures nearly all have one).
    private func kind(url: LazyURL, type: String?) -> ContentKind {
        let byType: ContentKind
        if lastKindByType != nil, lastKindType == type {
            byType = lastKindByType!
        } else {
            byType = ContentKind.of(type: type)
            lastKindType = type
            lastKindByType = byType
        }
        return byType == .unknown ? ContentKind.of(fileName: url.absoluteString) : byType
    }

    /// Whether the file of `type` at `url` is not an issue's (a podcast's audio, a video). Its parts are borrowed, not
    /// copied out of an asset (each of its references retained and released again); most files' type says they are
    /// readable, which the last type judged tells at once. (`kind` would answer the same from its cache; without this
    /// early return the feeds benchmark measured RSS 2% slower, from where the code then sat: kept until a change
    /// moves this code anyway.)
    private func isOther(url: LazyURL, type: String?) -> Bool {
        if lastKindByType == .readable, lastKindType != nil, lastKindType == type { return false }
        return kind(url: url, type: type).isOther
    }

    /// The sizes of `assets` (a length that is no positive number is nil). Most entries give the sizes the one
    /// before gave (a feed's issues are often one size, or the feed writes a placeholder): that array is
    /// shared, not parsed and made again.
    private func lengths() -> [Int64?] {
        if lastLengthTexts.count == assets.count {
            var same = true
            for index in assets.indices where lastLengthTexts[index] != assets[index].length {
                same = false
                break
            }
            if same { return lastLengths }
        }
        lastLengthTexts = assets.map(\.length)
        lastLengths = assets.map { $0.length.flatMap { Int64(FeedText.trimmed($0)) }.flatMap { $0 > 0 ? $0 : nil } }
        return lastLengths
    }

    /// One item onto the feed, its `contentAssets` in `assets`. `format` may be nil only when the item has content.
    /// The item's title, summary and id are taken out of it (moved into what it becomes, not copied and released twice).
    private func place(_ item: inout FeedDocument.Item, markup: UnsafeBufferPointer<UInt8>? = nil, format: FeedFormat?,
                       completeLinks: (inout FeedDocument.Item) -> Void = { _ in }) {
        defer { position += 1 }
        let (title, summary) = Self.titleAndSummary(title: item.title.take(), alternateTitle: item.alternateTitle.take(), summary: item.summary.take(),
                                                    content: item.content.take(), alternateSummary: item.alternateSummary.take())
        let date = item.published ?? item.updated ?? item.issued ?? item.created
        // Files that are not issues (a podcast's audio, a video) are never queued: with no issue file
        // beside them, the item is a headline that names its file.
        var media: (url: LazyURL, kind: String)?
        // Most items have no such file: their assets are only looked at (removeAll rebuilt the array each time).
        // Assets are read in place below (`allSatisfy`, `zip` and `contains(where:)` copied each, retaining and
        // releasing its references: a fifth of the reference counting of reading a feed).
        var anyOther = false
        for index in assets.indices where isOther(url: assets[index].url, type: assets[index].type) {
            anyOther = true
            break
        }
        if anyOther {
            assets.removeAll { asset in
                guard case .other(let kind) = self.kind(url: asset.url, type: asset.type) else { return false }
                if media == nil { media = (asset.url, kind) }
                return true
            }
        }

        if !assets.isEmpty || (format == .newsstandAtom && media == nil) {
            appendIssue(rawName: item.id.take() ?? item.about ?? assets.first?.url.absoluteString ?? "", title: title, summary: summary,
                        date: date ?? item.endDate, cover: FeedParser.cover(item, assets: assets),
                        acquisitions: item.hasLink(rel: FeedParser.isAcquisition) ? AcquisitionLink.all(in: item.links) : [],
                        pageStream: item.pageStream.take())
        } else if let link = FeedParser.navigationLink(item) {
            var navigationLink = NavigationLink(title: title ?? link.title.map(FeedText.plain) ?? link.url.absoluteString,
                                                url: link.url.url, summary: summary)
            navigationLink.rel = link.rel == "alternate" ? "" : link.rel
            navigationLink.isAcquisitionFeed = link.type.map { FeedText.contains($0.lowercased(), "kind=acquisition") } ?? false
            navigation.append(navigationLink)
        } else {
            completeLinks(&item)
            let link = item.link ?? FeedParser.alternateLink(item) ?? item.guidLink
            if let title = title ?? link?.absoluteString ?? media?.url.absoluteString {
                headlines.append(Headline(title: title, link: link?.url, date: date, summary: summary,
                                          mediaURL: media?.url.url, mediaKind: media?.kind, body: item.markup ?? markup.map { String(decoding: $0, as: UTF8.self) } ?? ""))
            } else if !summary.isEmpty {
                headlines.append(Headline(title: String(summary.prefix(80)), link: nil, date: date, summary: summary,
                                          mediaURL: media?.url.url, mediaKind: media?.kind, body: item.markup ?? markup.map { String(decoding: $0, as: UTF8.self) } ?? ""))
            }
        }
    }

    /// An issue onto the feed, its `contentAssets` in `assets`: unless its name is empty, an entry (taken out again in
    /// `finish` when an earlier entry has its name). The cover, the acquisitions and the sizes are worked out only for
    /// an entry.
    private func appendIssue(rawName: String, title: String?, summary: String, date ownDate: Date?, cover: @autoclosure () -> LazyURL?,
                             acquisitions: @autoclosure () -> [AcquisitionLink], pageStream: CatalogPageStream?) {
        let name = FeedParser.issueName(rawName)
        guard !name.isEmpty else {
            problems.append("item #\(position + 1) has no id and no content URL")
            return
        }
        nameHashes.append(name.hashValue)
        let cover = cover()
        var types: [String] = []
        var allTyped = true
        for index in assets.indices where assets[index].type == nil {
            allTyped = false
            break
        }
        if allTyped {
            // Most entries have the types the one before had: that array is shared, not made again.
            var same = lastTypes.count == assets.count
            if same {
                for index in assets.indices where lastTypes[index] != assets[index].type {
                    same = false
                    break
                }
            }
            if same {
                types = lastTypes
            } else {
                types.reserveCapacity(assets.count)
                for asset in assets { types.append(asset.type!) }
                lastTypes = types
            }
        }
        // The first link apart (see `CatalogEntry`): an array only for the rest, when there are any.
        let moreLinks = assets.count > 1 ? assets[1...].map(\.url) : []
        if ownDate == nil { undated.append(entries.count) }
        if cover == nil { uncovered.append(entries.count) }
        var anyLength = false
        for index in assets.indices where assets[index].length != nil {
            anyLength = true
            break
        }
        let contentLengths = anyLength ? lengths() : []
        // Made in the call (a local `entry` appended was retained for the array and released again).
        entries.append(CatalogEntry(name: name, title: title ?? name, date: ownDate ?? Date(timeIntervalSince1970: 0),
                                    summary: summary, coverLink: cover, firstContentLink: assets.first?.url, moreContentLinks: moreLinks,
                                    contentTypes: types, acquisitions: acquisitions(), contentLengths: contentLengths,
                                    pageStream: pageStream))
    }

    // MARK: Issues read whole

    /// Whether an item whose one content file is `url` of `type`, and that has nothing else `add` would weigh, can be
    /// mapped at once by `addIssue` (the reader's fast lane): no items are held for the feed's format, and the file is
    /// one an issue is made of, not a podcast's audio or video (whose item is a headline).
    func takesIssue(url: LazyURL, type: String?) -> Bool {
        held.isEmpty && !isOther(url: url, type: type)
    }

    /// An issue item the reader read whole, with one content file (`takesIssue` said yes for it), mapped as `add` maps
    /// it (the same title, summary, date and name rules).
    func addIssue(id: String?, about: String?, title: String?, alternateTitle: String?, summary: String?, content: String?,
                  alternateSummary: String?, published: Date?, updated: Date?, issued: Date?, created: Date?, endDate: Date?,
                  url: LazyURL, type: String?, length: String?, cover: LazyURL?) {
        defer { position += 1 }
        let (title, summary) = Self.titleAndSummary(title: title, alternateTitle: alternateTitle, summary: summary, content: content,
                                                    alternateSummary: alternateSummary)
        assets.popAll()
        assets.append(FeedParser.Asset(url: url, type: type, length: length))
        appendIssue(rawName: id ?? about ?? url.absoluteString, title: title, summary: summary,
                    date: published ?? updated ?? issued ?? created ?? endDate, cover: cover, acquisitions: [], pageStream: nil)
    }

    /// An item's title (its own, else its alternate one; an empty one is none) and summary (its own, else its content,
    /// else its alternate summary, else empty).
    private static func titleAndSummary(title: String?, alternateTitle: String?, summary: String?, content: String?,
                                        alternateSummary: String?) -> (title: String?, summary: String) {
        (title.flatMap { $0.isEmpty ? nil : $0 } ?? alternateTitle.flatMap { $0.isEmpty ? nil : $0 },
         summary.flatMap { $0.isEmpty ? nil : $0 } ?? content.flatMap { $0.isEmpty ? nil : $0 } ?? alternateSummary ?? "")
    }

    /// The feed, once `document` (the reader's, without its items if they came here) is read to its end.
    func finish(_ document: FeedDocument) -> Feed {
        let format = FeedParser.format(of: document, detected: detected)
        release(format: format)
        let fallbackDate = document.updated ?? document.published ?? Date(timeIntervalSince1970: 0)
        for index in undated { entries[index].date = fallbackDate }
        if let image = document.image {
            let link = LazyURL(image)
            for index in uncovered { entries[index].coverLink = link }
        }
        undated = []
        uncovered = []
        dropRepeatedNames()
        var feed = Feed(format: format, title: document.title.flatMap { $0.isEmpty ? nil : $0 }, entries: entries,
                        headlines: headlines, navigation: navigation, nextPage: document.nextPage, problems: problems)
        feed.search = document.search
        feed.facets = document.facets
        feed.start = document.start
        return feed
    }

    /// Takes out each entry whose name an earlier one has, saying so (after the problems found while reading).
    private func dropRepeatedNames() {
        let repeated = RepeatedNames.laterPositions(hashes: nameHashes) { entries[$0].name }
        nameHashes = []
        guard !repeated.isEmpty else { return }
        for index in repeated { problems.append("issue '\(entries[index].name)' is listed twice; the first is kept") }
        entries.removeSubranges(RangeSet(repeated, within: entries))
    }

    /// `finish` with the reader's problem; throws when nothing usable was read.
    func finish(_ read: (FeedDocument, problem: String?)) throws -> Feed {
        var feed = finish(read.0)
        if let problem = read.problem { feed.problems.append(problem) }
        if feed.entries.isEmpty && feed.headlines.isEmpty && feed.navigation.isEmpty && !feed.problems.isEmpty {
            throw CatalogError(feed.problems.count == 1 ? feed.problems[0] : "no usable items: " + feed.problems.joined(separator: "; "))
        }
        return feed
    }
}

import Foundation

/// Opens unpacked EPUB 2 and EPUB 3 publications.
public enum EPUBReader {
    /// Opens an unpacked EPUB folder. Resolves every href relative to the file it appears in,
    /// percent-decodes it, and refuses hrefs that resolve outside `folder`.
    /// Throws `EPUBError` with a plain-words message when the book cannot be read.
    public static func open(folder: URL) throws -> EPUBBook {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw EPUBError("publication folder \(folder.path) not found")
        }
        let resolver = EPUBPathResolver(folder: folder)
        let packagePath = try packageDocumentPath(resolver: resolver)
        let package = try EPUBPackageDocument.load(packagePath, resolver: resolver)

        let articleItems = try readingOrder(package)
        let tableOfContents = contents(package, resolver: resolver).map(sanitized)
        let tocTitles = firstTitles(in: tableOfContents)

        var articles: [EPUBArticle] = []
        for (index, (item, spinePosition)) in articleItems.enumerated() {
            let file = resolver.url(for: item.location!.components)
            var title = tocTitles[file]
            if title == nil, isMarkup(item.mediaType) {
                title = EPUBNavigationParser.documentTitle(file)
            }
            let safeTitle = title.map(TextSanitizer.singleLine).flatMap { $0.isEmpty ? nil : $0 }
            articles.append(EPUBArticle(title: safeTitle ?? "Section \(index + 1)", file: file, mediaType: item.mediaType, spinePosition: spinePosition))
        }

        return EPUBBook(
            title: package.title.map(TextSanitizer.singleLine).flatMap { $0.isEmpty ? nil : $0 } ?? "Untitled",
            creator: package.creator.map(TextSanitizer.singleLine),
            language: package.language,
            version: package.version.isEmpty ? "2.0" : package.version,
            articles: articles,
            tableOfContents: tableOfContents.isEmpty
                ? articles.map { EPUBTableOfContentsEntry(title: $0.title, file: $0.file, fragment: nil) }
                : tableOfContents,
            coverImage: coverImage(package).map { resolver.url(for: $0.components) }
        )
    }

    /// The entry with its title (and its children's) safe for a terminal.
    private static func sanitized(_ entry: EPUBTableOfContentsEntry) -> EPUBTableOfContentsEntry {
        let title = TextSanitizer.singleLine(entry.title)
        return EPUBTableOfContentsEntry(title: title.isEmpty ? "Untitled" : title, file: entry.file, fragment: entry.fragment,
                                        children: entry.children.map(sanitized))
    }

    /// The package document named by META-INF/container.xml (the first OPF rootfile).
    private static func packageDocumentPath(resolver: EPUBPathResolver) throws -> [String] {
        let containerPath = ["META-INF", "container.xml"]
        guard FileManager.default.fileExists(atPath: resolver.url(for: containerPath).path) else {
            throw EPUBError("missing META-INF/container.xml")
        }
        if let unavailable = LibXML2Library.unavailable { throw EPUBError(unavailable) }
        let tree: MarkupElement
        switch XMLTreeParser.parse(contentsOf: resolver.url(for: containerPath)) {
        case .success(let parsed): tree = parsed
        case .failure(let failure):
            throw EPUBError("META-INF/container.xml is not well-formed XML (line \(failure.line): \(failure.reason))")
        }
        let rootfiles = tree.descendants { $0.name == "rootfile" }
        guard let rootfile = rootfiles.first(where: { $0.attribute("media-type") == "application/oebps-package+xml" }) ?? rootfiles.first else {
            throw EPUBError("META-INF/container.xml names no package document")
        }
        guard let fullPath = rootfile.attribute("full-path")?.trimmingCharacters(in: .whitespacesAndNewlines), !fullPath.isEmpty else {
            throw EPUBError("META-INF/container.xml gives no path for the package document")
        }
        guard let location = resolver.resolve(fullPath, relativeTo: []) else {
            throw EPUBError("package document path '\(fullPath)' points outside the publication")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolver.url(for: location.components).path, isDirectory: &isDirectory),
              !isDirectory.boolValue else {
            throw EPUBError("package document \(resolver.displayPath(location.components)) not found")
        }
        return location.components
    }

    /// Spine items that point at files inside the publication: linear ones, or all of them when
    /// every item is non-linear.
    /// Each with its place among the spine's resolvable items (from 1).
    private static func readingOrder(_ package: EPUBPackageDocument) throws -> [(EPUBPackageDocument.ManifestItem, Int)] {
        guard !package.spine.isEmpty else { throw EPUBError("spine is empty") }
        let resolvable = package.spine.compactMap { spineItem -> (EPUBPackageDocument.ManifestItem, Bool)? in
            guard let item = package.manifest[spineItem.idref], item.location != nil else { return nil }
            return (item, spineItem.linear)
        }
        guard !resolvable.isEmpty else {
            throw EPUBError("none of the spine's \(package.spine.count) items refers to a manifest file inside the publication")
        }
        let numbered = resolvable.enumerated().map { (item: $0.element.0, linear: $0.element.1, position: $0.offset + 1) }
        let linear = numbered.filter(\.linear).map { ($0.item, $0.position) }
        return linear.isEmpty ? numbered.map { ($0.item, $0.position) } : linear
    }

    /// Navigation document, else NCX; empty when neither yields entries.
    private static func contents(_ package: EPUBPackageDocument, resolver: EPUBPathResolver) -> [EPUBTableOfContentsEntry] {
        if let nav = package.items.first(where: { $0.properties.contains("nav") }), let location = nav.location {
            let entries = EPUBNavigationParser.navigationDocument(location.components, resolver: resolver)
            if !entries.isEmpty { return entries }
        }
        let ncxItem = package.spineTableOfContentsID.flatMap { package.manifest[$0] }.flatMap { $0.location == nil ? nil : $0 }
            ?? package.items.first { $0.mediaType == "application/x-dtbncx+xml" && $0.location != nil }
        if let location = ncxItem?.location {
            return EPUBNavigationParser.ncx(location.components, resolver: resolver)
        }
        return []
    }

    /// For each file, the title of the first table of contents entry (depth first) that points at it.
    private static func firstTitles(in entries: [EPUBTableOfContentsEntry]) -> [URL: String] {
        var titles: [URL: String] = [:]
        func visit(_ entries: [EPUBTableOfContentsEntry]) {
            for entry in entries {
                if let file = entry.file, titles[file] == nil, entry.title != "Untitled" { titles[file] = entry.title }
                visit(entry.children)
            }
        }
        visit(entries)
        return titles
    }

    private static func coverImage(_ package: EPUBPackageDocument) -> EPUBPathResolver.Location? {
        let items = package.items.filter { $0.location != nil }
        if let item = items.first(where: { $0.properties.contains("cover-image") }) { return item.location }
        if let id = package.coverMetaID, let item = package.manifest[id], item.location != nil { return item.location }
        let conventional = items.first { ["cover-image", "cover"].contains($0.id.lowercased()) && $0.mediaType.hasPrefix("image/") }
        return conventional?.location
    }

    private static func isMarkup(_ mediaType: String) -> Bool {
        ["application/xhtml+xml", "text/html", "application/xml", "text/xml"].contains(mediaType.lowercased())
    }
}

import Foundation

/// Reads tables of contents: EPUB 3 navigation documents (`<nav epub:type="toc">`) and EPUB 2 NCX files.
enum EPUBNavigationParser {
    /// The `toc` nav of an EPUB 3 navigation document (the first `<nav>` when none is marked `toc`).
    static func navigationDocument(_ components: [String], resolver: EPUBPathResolver) -> [EPUBTableOfContentsEntry] {
        guard let tree = parseLeniently(resolver.url(for: components)) else { return [] }
        let navs = tree.descendants { $0.name == "nav" }
        guard let nav = navs.first(where: { $0.attributeTokens("type").contains("toc") }) ?? navs.first,
              let list = nav.firstDescendant(where: { $0.name == "ol" || $0.name == "ul" }) else { return [] }
        return navigationList(list, document: components, resolver: resolver)
    }

    private static func navigationList(_ list: MarkupElement, document: [String], resolver: EPUBPathResolver) -> [EPUBTableOfContentsEntry] {
        list.children(named: "li").compactMap { item in
            let label = item.childElements.first { $0.name == "a" || $0.name == "span" }
                ?? item.firstDescendant { $0.name == "a" }
            let nested = item.childElements.first { $0.name == "ol" || $0.name == "ul" }
            let children = nested.map { navigationList($0, document: document, resolver: resolver) } ?? []
            guard let label else {
                return children.isEmpty ? nil : EPUBTableOfContentsEntry(title: "Untitled", file: nil, fragment: nil, children: children)
            }
            let location = label.name == "a" ? label.attribute("href").flatMap { resolver.resolve($0, relativeTo: document) } : nil
            return EPUBTableOfContentsEntry(
                title: labelText(label),
                file: location.map { resolver.url(for: $0.components) },
                fragment: location?.fragment,
                children: children
            )
        }
    }

    /// A link's text; for image-only links the image's alt text (or a title attribute).
    private static func labelText(_ label: MarkupElement) -> String {
        let text = WhitespaceCollapsing.collapse(TextBlockBuilder.readableText(of: label))
        if !text.isEmpty { return text }
        let images = label.descendants { $0.name == "img" || $0.name == "image" }
        if let alt = images.compactMap({ $0.attribute("alt") }).map(WhitespaceCollapsing.collapse).first(where: { !$0.isEmpty }) {
            return alt
        }
        if let title = label.attribute("title").map(WhitespaceCollapsing.collapse), !title.isEmpty { return title }
        if let title = images.compactMap({ $0.attribute("title") }).first(where: { !$0.isEmpty }) { return title }
        return "Untitled"
    }

    /// The `navMap` of an EPUB 2 NCX file.
    static func ncx(_ components: [String], resolver: EPUBPathResolver) -> [EPUBTableOfContentsEntry] {
        guard case .success(let tree) = XMLTreeParser.parse(contentsOf: resolver.url(for: components)),
              let navMap = tree.firstDescendant(where: { $0.name == "navMap" }) else { return [] }
        return navPoints(navMap, document: components, resolver: resolver)
    }

    private static func navPoints(_ parent: MarkupElement, document: [String], resolver: EPUBPathResolver) -> [EPUBTableOfContentsEntry] {
        parent.children(named: "navPoint").map { point in
            let title = point.firstChild(named: "navLabel")?.firstChild(named: "text")?.collapsedText ?? ""
            let location = point.firstChild(named: "content")?.attribute("src").flatMap { resolver.resolve($0, relativeTo: document) }
            return EPUBTableOfContentsEntry(
                title: title.isEmpty ? "Untitled" : title,
                file: location.map { resolver.url(for: $0.components) },
                fragment: location?.fragment,
                children: navPoints(point, document: document, resolver: resolver)
            )
        }
    }

    /// An XHTML file as a tree: strict XML when it parses, libxml2's HTML parser otherwise.
    static func parseLeniently(_ url: URL) -> MarkupElement? {
        if case .success(let tree) = XMLTreeParser.parse(contentsOf: url) { return tree }
        guard let data = try? Data(contentsOf: url) else { return nil }
        return HTMLTreeParser.parse(data: data)
    }

    /// The title of a content document: its `<title>`, else its first heading. Reads at most the
    /// first 256 KiB, leniently.
    static func documentTitle(_ url: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 256 * 1024), !data.isEmpty else { return nil }
        let tree = HTMLTreeParser.parse(data: data)
        if let title = tree.firstDescendant(where: { $0.name == "title" })?.collapsedText, !title.isEmpty {
            return title
        }
        let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]
        if let heading = tree.firstDescendant(where: { headings.contains($0.name) }) {
            let text = WhitespaceCollapsing.collapse(TextBlockBuilder.readableText(of: heading))
            if !text.isEmpty { return text }
        }
        return nil
    }
}

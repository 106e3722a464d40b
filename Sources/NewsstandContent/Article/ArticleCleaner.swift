import Foundation

/// Tidies the element found as the article: forms, embeds, share bars and asides out; tables,
/// lists and divs that look like furniture (many links, few paragraphs, inputs, lone short lines)
/// out; lazy pictures given their real source; `h1`s made `h2`s; empty paragraphs out.
struct ArticleCleaner {
    let search: ArticleCandidateSearch
    var cleanConditionally: Bool { search.options.cleanConditionally }

    static let videoHosts = ["youtube.com", "youtube-nocookie.com", "player.vimeo.com", "dailymotion.com", "v.qq.com",
                             "bilibili.com", "archive.org", "upload.wikimedia.org", "player.twitch.tv"]

    func clean(_ article: PageNode) {
        markDataTables(article)
        LazyImages.fix(article)
        conditionallyClean(article, tag: "form")
        conditionallyClean(article, tag: "fieldset")
        removeAll(article, tags: ["object", "embed", "footer", "link", "aside", "nav"])
        for child in article.elementChildren {
            var doomed: [PageNode] = []
            child.forEachDescendant { node in
                if node.isElement, ArticleNamePattern.share.matches(classOrIDOf: node), ArticleNamePattern.isShareName(node.matchString),
                   node.textContent.utf16.count < 500 { doomed.append(node) }
            }
            doomed.forEach { $0.detach() }
        }
        removeAll(article, tags: ["iframe", "input", "textarea", "select", "button"])
        for heading in article.elements(named: ["h1", "h2"]) where search.classWeight(heading) < 0 { heading.detach() }
        conditionallyClean(article, tag: "table")
        conditionallyClean(article, tag: "ul")
        conditionallyClean(article, tag: "div")
        for heading in article.elements(named: "h1") { heading.rename("h2") }
        for paragraph in article.elements(named: "p") {
            if paragraph.contains(named: ["img", "embed", "object", "iframe", "picture"]) { continue }
            if !paragraph.hasVisibleText { paragraph.detach() }
        }
        // A one-cell table is a box around its content.
        for table in article.elements(named: "table") {
            var rows = table
            if let body = onlyChild(of: table, named: "tbody") { rows = body }
            guard let row = onlyChild(of: rows, named: "tr"), let cell = onlyChild(of: row, named: "td") else { continue }
            cell.rename(cell.children.allSatisfy(ArticleCandidateSearch.isPhrasingContent) ? "p" : "div")
            table.replace(with: cell)
        }
    }

    private func onlyChild(of node: PageNode, named name: String) -> PageNode? {
        let children = node.elementChildren
        guard children.count == 1, children[0].name == name,
              !ArticleCandidateSearch.hasVisibleTextChild(node) else { return nil }
        return children[0]
    }

    private func removeAll(_ article: PageNode, tags: Set<String>) {
        for node in article.elements(named: tags) {
            if ["object", "embed", "iframe"].contains(node.name), isVideo(node) { continue }
            node.detach()
        }
    }

    private func isVideo(_ node: PageNode) -> Bool {
        node.attributes.values.contains { value in Self.videoHosts.contains { value.contains("//" + $0) || value.contains("//www." + $0) } }
    }

    // MARK: Data tables

    private func markDataTables(_ root: PageNode) {
        for table in root.elements(named: "table") {
            table.isDataTable = isDataTable(table)
        }
    }

    private func isDataTable(_ table: PageNode) -> Bool {
        if table["role"] == "presentation" || table["datatable"] == "0" { return false }
        if let summary = table["summary"], !summary.isEmpty { return true }
        if let caption = table.elements(named: "caption").first, !caption.children.isEmpty { return true }
        if table.contains(named: ["col", "colgroup", "tfoot", "thead", "th"]) { return true }
        if table.contains(named: ["table"]) { return false }
        var rows = 0
        var columns = 0
        for row in table.elements(named: "tr") {
            rows += Int(row["rowspan"] ?? "") ?? 1
            var inRow = 0
            for cell in row.elements(named: "td") { inRow += Int(cell["colspan"] ?? "") ?? 1 }
            columns = max(columns, inRow)
        }
        if columns == 1 || rows == 1 { return false }
        if rows >= 10 || columns > 4 { return true }
        return rows * columns > 10
    }

    // MARK: Conditional cleaning

    private func conditionallyClean(_ root: PageNode, tag: String) {
        guard cleanConditionally else { return }
        for node in root.elements(named: tag).reversed() where shouldRemove(node, tag: tag) {
            node.detach()
        }
    }

    /// The share of the text inside descendants named `tags` (the outermost such ones: text is
    /// counted once, so a deep nest of them costs one walk).
    private func textDensity(_ node: PageNode, tags: Set<String>, total: Int) -> Double {
        guard total > 0 else { return 0 }
        var length = 0
        node.walkDescendants { descendant in
            guard tags.contains(descendant.name) else { return true }
            length += descendant.innerTextLength
            return false
        }
        return Double(length) / Double(total)
    }

    /// What `shouldRemove` counts below an element, in one walk.
    private struct Contents {
        var paragraphs = 0
        var images = 0
        var listItems = 0
        var inputs = 0
        var embeds: [PageNode] = []
        var holdsDataTable = false
        /// `innerTextLength` of the lists (`ul`, `ol`) below, nested ones counted again.
        var listLength = 0
        var commas = 0

        init(of node: PageNode) {
            node.forEachDescendant { descendant in
                switch descendant.name {
                case "#text":
                    for scalar in descendant.text.unicodeScalars where scalar == "," { commas += 1 }
                case "p": paragraphs += 1
                case "img": images += 1
                case "li": listItems += 1
                case "input": inputs += 1
                case "object", "embed", "iframe": embeds.append(descendant)
                case "table": if descendant.isDataTable { holdsDataTable = true }
                case "ul", "ol": listLength += descendant.innerTextLength
                default: break
                }
            }
        }
    }

    private func shouldRemove(_ node: PageNode, tag: String) -> Bool {
        let contentLength = node.innerTextLength
        let contents = Contents(of: node)
        var isList = tag == "ul" || tag == "ol"
        if !isList {
            isList = contentLength > 0 && Double(contents.listLength) / Double(contentLength) > 0.9
        }
        if tag == "table", node.isDataTable { return false }
        if node.hasAncestor(named: "table", maxDepth: -1, where: \.isDataTable) { return false }
        if node.hasAncestor(named: "code") { return false }
        if contents.holdsDataTable { return false }
        let weight = search.classWeight(node)
        if weight < 0 { return true }
        guard contents.commas < 10 else { return false }
        let paragraphs = contents.paragraphs
        let images = contents.images
        let listItems = contents.listItems - 100
        let inputs = contents.inputs
        let headingDensity = textDensity(node, tags: Self.headings, total: contentLength)
        var embeds = 0
        for embed in contents.embeds {
            if isVideo(embed) { return false }
            embeds += 1
        }
        // The words of an ad or a loading placeholder are short: longer texts are not built to compare.
        if contentLength <= Self.longestPlaceholder {
            let lowered = node.innerText.lowercased()
            if Self.adWords.contains(lowered) || Self.loadingWords.contains(lowered) { return true }
        }
        let linkDensity = ArticleCandidateSearch.linkDensity(node)
        let textDensity = textDensity(node, tags: Self.textDensityTags, total: contentLength)
        let inFigure = node.hasAncestor(named: "figure")
        var remove = false
        if !inFigure && images > 1 && Double(paragraphs) / Double(images) < 0.5 { remove = true }
        if !isList && listItems > paragraphs { remove = true }
        if inputs > paragraphs / 3 { remove = true }
        if !isList && !inFigure && headingDensity < 0.9 && contentLength < 25 && (images == 0 || images > 2) && linkDensity > 0 { remove = true }
        if !isList && weight < 25 && linkDensity > 0.2 { remove = true }
        if weight >= 25 && linkDensity > 0.5 { remove = true }
        if (embeds == 1 && contentLength < 75) || embeds > 1 { remove = true }
        if images == 0 && textDensity == 0 { remove = true }
        if isList && remove {
            for child in node.elementChildren where child.elementChildren.count > 1 { return true }
            if images == contents.listItems { return false }
        }
        return remove
    }

    static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]
    static let textDensityTags: Set<String> = Set(["span", "li", "td"]).union(ArticleCandidateSearch.divToParagraphElements)
    /// The length of the longest of `adWords` and `loadingWords` in UTF-16 units (an innerText longer is none of them).
    static let longestPlaceholder = adWords.union(loadingWords).map(\.utf16.count).max() ?? 0

    static let adWords: Set<String> = ["ad", "advertising", "advertisement", "pub", "publicité", "werb", "werbung", "广告", "реклама", "anuncio"]
    static let loadingWords: Set<String> = {
        var words: Set<String> = []
        for word in ["loading", "正在加载", "загрузка", "chargement", "cargando"] {
            words.insert(word)
            words.insert(word + "…")
            words.insert(word + "...")
        }
        return words
    }()
}

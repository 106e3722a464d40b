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
                if node.isElement, ArticleNamePattern.isShareName(node.matchString), node.textContent.utf16.count < 500 { doomed.append(node) }
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
            if !paragraph.textContent.contains(where: { !$0.isWhitespace }) { paragraph.detach() }
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
              !node.children.contains(where: { $0.isText && !$0.isBlankText }) else { return nil }
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
        var stack = node.children
        while let child = stack.popLast() {
            if tags.contains(child.name) {
                length += child.innerTextLength
            } else {
                stack.append(contentsOf: child.children)
            }
        }
        return Double(length) / Double(total)
    }

    private func shouldRemove(_ node: PageNode, tag: String) -> Bool {
        let innerText = node.innerText
        let contentLength = innerText.utf16.count
        var isList = tag == "ul" || tag == "ol"
        if !isList {
            var listLength = 0
            for list in node.elements(named: ["ul", "ol"]) { listLength += list.innerTextLength }
            isList = contentLength > 0 && Double(listLength) / Double(contentLength) > 0.9
        }
        if tag == "table", node.isDataTable { return false }
        if node.hasAncestor(named: "table", maxDepth: -1, where: \.isDataTable) { return false }
        if node.hasAncestor(named: "code") { return false }
        if node.elements(named: "table").contains(where: \.isDataTable) { return false }
        let weight = search.classWeight(node)
        if weight < 0 { return true }
        let commas = innerText.reduce(0) { $1 == "," ? $0 + 1 : $0 }
        guard commas < 10 else { return false }
        let paragraphs = node.elements(named: "p").count
        let images = node.elements(named: "img").count
        let listItems = node.elements(named: "li").count - 100
        let inputs = node.elements(named: "input").count
        let headingDensity = textDensity(node, tags: ["h1", "h2", "h3", "h4", "h5", "h6"], total: contentLength)
        var embeds = 0
        for embed in node.elements(named: ["object", "embed", "iframe"]) {
            if isVideo(embed) { return false }
            embeds += 1
        }
        let lowered = innerText.lowercased()
        if Self.adWords.contains(lowered) || Self.loadingWords.contains(lowered) { return true }
        let linkDensity = ArticleCandidateSearch.linkDensity(node)
        let textDensity = textDensity(node, tags: Set(["span", "li", "td"]).union(ArticleCandidateSearch.divToParagraphElements), total: contentLength)
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
            if images == node.elements(named: "li").count { return false }
        }
        return remove
    }

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

import Foundation

/// Extracts a web page's article (a reader view): its title, author line, date, site name,
/// language and direction, lead picture and body as the reader's `TextBlock`s.
///
/// The page is read with libxml2's HTML parser within `ArticleLimits` (bytes, depth, nodes). Its
/// scripts, styles, navigation, forms and hidden elements are taken out; the element holding the
/// article is found by `ArticleCandidateSearch` and tidied by `ArticleCleaner`. When what is found
/// is shorter than 500 characters the search runs again with fewer rules (first keeping unlikely
/// names, then ignoring class names, then keeping doubtful blocks) and the longest result wins.
/// Relative links and pictures resolve against `<base>`, else the page's own URL, else its
/// canonical address. All text is sanitised (`TextSanitizer`), so nothing from the page reaches a
/// terminal as an escape sequence.
public enum ArticleExtractor {
    /// Shorter articles send the search round again with fewer rules.
    static let minimumArticleLength = 500

    /// The article of the HTML page `data`, which came from `url` (nil: unknown). `encoding` is the
    /// charset HTTP gave, if any (else the page's `<meta charset>` or byte-order mark decides).
    public static func extract(from data: Data, url: URL?, encoding: String? = nil,
                               limits: ArticleLimits = .default) -> ExtractedArticle {
        let page = data.count > limits.maxPageBytes ? Data(data.prefix(limits.maxPageBytes)) : data
        let root = PageTreeBuilder.build(data: page, encoding: encoding, limits: limits)
        return extract(root: root, url: url)
    }

    static func extract(root: PageNode, url: URL?) -> ExtractedArticle {
        let html = root.elementChildren.first { $0.name == "html" }
        let baseURL = pageBaseURL(root, url: url)
        var result = ExtractedArticle()
        result.readerable = ReaderableCheck.isReaderable(root)
        LazyImages.unwrapNoscriptImages(root)
        let metadata = ArticleMetadata.read(from: root)
        for node in root.elements(named: ["script", "noscript", "style", "template", "nav"]) { node.detach() }
        for node in root.elements(named: "font") { node.rename("span") }
        let body = root.elements(named: "body").first ?? html ?? root
        replaceBreaks(body)

        let title = metadata.title.map(clean) ?? ""
        // The page as it was: each round works on a copy (the body itself is not read again).
        let pristine = body
        var options = ArticleCandidateSearch.Options()
        var byline: String?
        var attempts: [(article: PageNode, length: Int, dir: String?)] = []
        var chosen: (article: PageNode, dir: String?)?
        while chosen == nil {
            let working = pristine.copy()
            var search = ArticleCandidateSearch(options: options, title: title, lookForByline: metadata.byline == nil)
            search.byline = byline
            let article = search.article(in: working)
            byline = search.byline
            if let article {
                ArticleCleaner(search: search).clean(article)
                let length = article.innerTextLength
                if length >= minimumArticleLength {
                    chosen = (article, search.dir)
                    break
                }
                attempts.append((article, length, search.dir))
            }
            if options.stripUnlikely {
                options.stripUnlikely = false
            } else if options.weightClasses {
                options.weightClasses = false
            } else if options.cleanConditionally {
                options.cleanConditionally = false
            } else {
                if let longest = attempts.max(by: { $0.length < $1.length }), longest.length > 0 {
                    chosen = (longest.article, longest.dir)
                }
                break
            }
        }

        result.title = title.isEmpty ? nil : title
        result.byline = (metadata.byline ?? byline).map(clean).flatMap { $0.isEmpty ? nil : $0 }
        result.published = metadata.published.map(clean)
        result.siteName = metadata.siteName.map(clean)
        result.lang = html?["lang"].map(clean).flatMap { $0.isEmpty ? nil : $0 }
        result.dir = chosen?.dir.map(clean)
        if let article = chosen?.article {
            var builder = TextBlockBuilder(baseURL: baseURL)
            builder.addDocument(markup(of: article))
            result.blocks = builder.blocks
            if result.excerpt == nil, let paragraph = article.elements(named: "p").first {
                let text = clean(paragraph.textContent)
                if !text.isEmpty { result.excerpt = text }
            }
        }
        if let excerpt = metadata.excerpt.map(clean), !excerpt.isEmpty { result.excerpt = excerpt }
        if let image = metadata.image.flatMap({ resolve($0, against: baseURL) }) {
            result.leadImage = image
        } else {
            for case .image(let source?, _) in result.blocks {
                result.leadImage = source
                break
            }
        }
        if result.blocks.isEmpty { result.readerable = false }
        return result
    }

    // MARK: Addresses

    /// Where relative addresses point from: `<base href>` (itself relative to the page), else the
    /// page's URL, else its canonical address or `og:url`.
    static func pageBaseURL(_ root: PageNode, url: URL?) -> URL? {
        if let base = root.elements(named: "base").first(where: { $0["href"] != nil }), let href = base["href"],
           let resolved = resolve(href, against: url), resolved.scheme != nil {
            return resolved
        }
        if let url { return url }
        for link in root.elements(named: "link") where link["rel"]?.lowercased().split(separator: " ").contains("canonical") == true {
            if let href = link["href"], let resolved = resolve(href, against: nil), resolved.host != nil { return resolved }
        }
        for meta in root.elements(named: "meta") where meta["property"]?.lowercased() == "og:url" {
            if let content = meta["content"], let resolved = resolve(content, against: nil), resolved.host != nil { return resolved }
        }
        return nil
    }

    static func resolve(_ reference: String, against base: URL?) -> URL? {
        let trimmed = reference.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.lowercased().hasPrefix("data:"), !trimmed.lowercased().hasPrefix("javascript:") else { return nil }
        if let url = URL(string: trimmed, relativeTo: base) { return url.absoluteURL }
        var allowed = CharacterSet.urlPathAllowed
        allowed.insert(charactersIn: "#?%")
        return trimmed.addingPercentEncoding(withAllowedCharacters: allowed).flatMap { URL(string: $0, relativeTo: base)?.absoluteURL }
    }

    // MARK: Text

    /// A metadata field as one line: entities a page escaped twice decoded, text sanitised.
    static func clean(_ text: String) -> String {
        TextSanitizer.singleLine(decodingEntities(text)).trimmingCharacters(in: .whitespaces)
    }

    /// Decodes `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;` and numeric references left in a value.
    static func decodingEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            guard let semicolon = after.prefix(12).firstIndex(of: ";") else {
                result.append("&")
                rest = after
                continue
            }
            let name = String(after[..<semicolon])
            var decoded: String?
            switch name {
            case "amp": decoded = "&"
            case "lt": decoded = "<"
            case "gt": decoded = ">"
            case "quot": decoded = "\""
            case "apos": decoded = "'"
            default:
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else if name.hasPrefix("#") {
                    decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                }
            }
            if let decoded {
                result += decoded
                rest = after[after.index(after: semicolon)...]
            } else {
                result.append("&")
                rest = after
            }
        }
        result += rest
        return result
    }

    // MARK: Preparing the page

    /// Two or more `<br>`s in a row end a paragraph: the text after them (up to the next such run
    /// or block) becomes a `<p>`.
    static func replaceBreaks(_ body: PageNode) {
        for br in body.elements(named: "br") {
            guard let parent = br.parent else { continue }
            var replaced = false
            var next = nextNonBlank(after: br)
            while let current = next, current.name == "br" {
                replaced = true
                next = nextNonBlank(after: current)
                current.detach()
            }
            guard replaced else { continue }
            let paragraph = PageNode(name: "p")
            br.replace(with: paragraph)
            var sibling = paragraph.nextSibling
            while let current = sibling {
                if current.name == "br", let following = nextNonBlank(after: current), following.name == "br" { break }
                if !ArticleCandidateSearch.isPhrasingContent(current) { break }
                sibling = current.nextSibling
                paragraph.append(current)
            }
            while let last = paragraph.lastChild, ArticleCandidateSearch.isWhitespace(last) { last.detach() }
            if parent.name == "p" { parent.rename("div") }
        }
    }

    private static func nextNonBlank(after node: PageNode) -> PageNode? {
        var next = node.nextSibling
        while let current = next, current.isText, current.isBlankText { next = current.nextSibling }
        return next
    }

    /// The article as a `MarkupElement` tree for `TextBlockBuilder`.
    static func markup(of node: PageNode) -> MarkupElement {
        var element = MarkupElement(name: node.name, attributes: node.attributes)
        for child in node.children {
            if child.isText {
                element.children.append(.text(child.text))
            } else {
                element.children.append(.element(markup(of: child)))
            }
        }
        return element
    }
}

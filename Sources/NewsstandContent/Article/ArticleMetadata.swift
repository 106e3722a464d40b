import Foundation

/// What a page says about its article in its head: `<meta>` tags (Open Graph, Twitter, Dublin Core,
/// Parsely), JSON-LD (schema.org `Article` and its kinds) and `<title>`.
struct ArticleMetadata {
    var title: String?
    var byline: String?
    var excerpt: String?
    var siteName: String?
    var published: String?
    var image: String?

    /// schema.org types that are articles.
    static let articleTypes: Set<String> = [
        "Article", "AdvertiserContentArticle", "NewsArticle", "AnalysisNewsArticle", "AskPublicNewsArticle",
        "BackgroundNewsArticle", "OpinionNewsArticle", "ReportageNewsArticle", "ReviewNewsArticle", "Report",
        "SatiricalArticle", "ScholarlyArticle", "MedicalScholarlyArticle", "SocialMediaPosting", "BlogPosting",
        "LiveBlogPosting", "DiscussionForumPosting", "TechArticle", "APIReference",
    ]

    /// Reads the metadata of `root` (the whole page, scripts still in it).
    static func read(from root: PageNode) -> ArticleMetadata {
        let documentTitle = documentTitle(of: root)
        let jsonLD = readJSONLD(from: root, documentTitle: documentTitle)
        var values: [String: String] = [:]
        for meta in root.elements(named: "meta") {
            guard let content = meta["content"]?.trimmingCharacters(in: .whitespacesAndNewlines), !content.isEmpty else { continue }
            var matched = false
            if let property = meta["property"] {
                for token in property.lowercased().split(whereSeparator: \.isWhitespace) {
                    let parts = token.split(separator: ":", maxSplits: 1).map(String.init)
                    guard parts.count == 2, ["article", "dc", "dcterm", "og", "twitter"].contains(parts[0]),
                          ["author", "creator", "description", "published_time", "title", "site_name", "image"].contains(parts[1]) else { continue }
                    values[parts[0] + ":" + parts[1]] = content
                    matched = true
                }
            }
            if !matched, let name = meta["name"] {
                let key = name.lowercased().trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ".", with: ":")
                if Self.metaNames.contains(key) { values[key] = content }
            }
        }
        var metadata = ArticleMetadata()
        metadata.title = jsonLD.title ?? first(values, ["dc:title", "dcterm:title", "og:title", "weibo:article:title",
                                                        "weibo:webpage:title", "title", "twitter:title", "parsely-title"])
        if metadata.title == nil || metadata.title!.isEmpty { metadata.title = cleanedTitle(documentTitle, root: root) }
        let articleAuthor = values["article:author"].flatMap { isURL($0) ? nil : $0 }
        metadata.byline = jsonLD.byline ?? first(values, ["dc:creator", "dcterm:creator", "author", "parsely-author"]) ?? articleAuthor
        metadata.excerpt = jsonLD.excerpt ?? first(values, ["dc:description", "dcterm:description", "og:description",
                                                            "weibo:article:description", "weibo:webpage:description",
                                                            "description", "twitter:description"])
        metadata.siteName = jsonLD.siteName ?? values["og:site_name"]
        metadata.published = jsonLD.published ?? first(values, ["article:published_time", "parsely-pub-date"])
        metadata.image = first(values, ["og:image", "twitter:image"]) ?? jsonLD.image
        return metadata
    }

    private static let metaNames: Set<String> = {
        var names: Set<String> = []
        for prefix in ["", "dc:", "dcterm:", "og:", "twitter:", "parsely-", "weibo:article:", "weibo:webpage:"] {
            for field in ["author", "creator", "pub-date", "description", "title", "site_name", "image"] {
                names.insert(prefix + field)
            }
        }
        return names
    }()

    private static func first(_ values: [String: String], _ keys: [String]) -> String? {
        for key in keys { if let value = values[key], !value.isEmpty { return value } }
        return nil
    }

    static func isURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme else { return false }
        return ["http", "https"].contains(scheme.lowercased()) && url.host != nil
    }

    static func documentTitle(of root: PageNode) -> String {
        guard let title = root.elements(named: "title").first else { return "" }
        return title.textContent.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: The title

    private static let separators: Set<Character> = ["|", "-", "–", "—", "\\", "/", ">", "»"]
    private static let hierarchical: Set<Character> = ["\\", "/", ">", "»"]

    /// Words as `split(/\s+/)` counts them: runs of white space plus one.
    private static func wordCount(_ text: String) -> Int {
        var runs = 0
        var inSpace = false
        for character in text {
            if character.isWhitespace {
                if !inSpace { runs += 1 }
                inSpace = true
            } else {
                inSpace = false
            }
        }
        return runs + 1
    }

    /// Offsets of " X " separators (X one of `separators`) in the title.
    private static func separatorRanges(_ title: [Character]) -> [Int] {
        var found: [Int] = []
        guard title.count >= 3 else { return found }
        for index in 1..<(title.count - 1) where separators.contains(title[index]) && title[index - 1].isWhitespace && title[index + 1].isWhitespace {
            found.append(index - 1)
        }
        return found
    }

    /// The page's `<title>` without the site's name: the part before the last separator (or after
    /// the first, when that leaves too few words), the part after a colon, or the one `<h1>`.
    static func cleanedTitle(_ original: String, root: PageNode) -> String {
        let characters = Array(original)
        var title = original
        var hadHierarchical = false
        let separatorsFound = separatorRanges(characters)
        if let last = separatorsFound.last {
            hadHierarchical = separatorsFound.contains { hierarchical.contains(characters[$0 + 1]) }
            title = String(characters[..<last])
            if wordCount(title) < 3 {
                // Remove the first part instead: everything up to and including the first separator character.
                if let firstSeparator = characters.firstIndex(where: { separators.contains($0) }) {
                    title = String(characters[(firstSeparator + 1)...])
                }
            }
        } else if title.contains(": ") {
            let headings = root.elements(named: ["h1", "h2"])
            let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
            if !headings.contains(where: { $0.textContent.trimmingCharacters(in: .whitespacesAndNewlines) == trimmed }) {
                let lastColon = original.lastIndex(of: ":")!
                title = String(original[original.index(after: lastColon)...])
                if wordCount(title) < 3 {
                    let firstColon = original.firstIndex(of: ":")!
                    title = String(original[original.index(after: firstColon)...])
                } else if wordCount(String(original[..<original.firstIndex(of: ":")!])) > 5 {
                    title = original
                }
            }
        } else if title.count > 150 || title.count < 15 {
            let ones = root.elements(named: "h1")
            if ones.count == 1 { title = ones[0].innerText }
        }
        title = PageNode.normalized(title)
        let words = wordCount(title)
        if words <= 4 {
            var stripped = original
            for index in separatorsFound.reversed() {
                let start = stripped.index(stripped.startIndex, offsetBy: index)
                stripped.replaceSubrange(start..<stripped.index(start, offsetBy: 3), with: "")
            }
            if !hadHierarchical || words != wordCount(stripped) - 1 { title = original }
        }
        return title
    }

    // MARK: JSON-LD

    private static func readJSONLD(from root: PageNode, documentTitle: String) -> ArticleMetadata {
        for script in root.elements(named: "script") where script["type"]?.lowercased() == "application/ld+json" {
            var content = script.textContent.trimmingCharacters(in: .whitespacesAndNewlines)
            if content.hasPrefix("<![CDATA[") { content.removeFirst(9) }
            if content.hasSuffix("]]>") { content.removeLast(3) }
            guard content.utf8.count < 4 << 20,
                  let parsed = try? JSONSerialization.jsonObject(with: Data(content.utf8), options: [.fragmentsAllowed]) else { continue }
            var object: [String: Any]?
            if let list = parsed as? [Any] {
                object = list.compactMap { $0 as? [String: Any] }.first { isArticle($0["@type"]) }
                guard object != nil else { continue }
            } else {
                object = parsed as? [String: Any]
            }
            guard var article = object else { continue }
            let context = article["@context"]
            let schemaContext: Bool
            if let text = context as? String {
                schemaContext = isSchemaOrg(text)
            } else if let dictionary = context as? [String: Any], let vocab = dictionary["@vocab"] as? String {
                schemaContext = isSchemaOrg(vocab)
            } else {
                schemaContext = false
            }
            guard schemaContext else { continue }
            if article["@type"] == nil, let graph = article["@graph"] as? [Any] {
                guard let found = graph.compactMap({ $0 as? [String: Any] }).first(where: { isArticle($0["@type"]) }) else { continue }
                article = found
            }
            guard isArticle(article["@type"]) else { continue }
            var fields = ArticleMetadata()
            let name = (article["name"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)
            let headline = (article["headline"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)
            if let name, let headline, name != headline {
                let title = cleanedTitle(documentTitle, root: root)
                let nameMatches = textSimilarity(name, title) > 0.75
                let headlineMatches = textSimilarity(headline, title) > 0.75
                fields.title = headlineMatches && !nameMatches ? headline : name
            } else {
                fields.title = name ?? headline
            }
            if let author = article["author"] as? [String: Any], let authorName = author["name"] as? String {
                fields.byline = authorName.trimmingCharacters(in: .whitespacesAndNewlines)
            } else if let authors = article["author"] as? [Any], let firstAuthor = authors.first as? [String: Any], firstAuthor["name"] is String {
                fields.byline = authors.compactMap { (($0 as? [String: Any])?["name"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines) }
                    .joined(separator: ", ")
            }
            fields.excerpt = (article["description"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)
            if let publisher = article["publisher"] as? [String: Any], let publisherName = publisher["name"] as? String {
                fields.siteName = publisherName.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            fields.published = (article["datePublished"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)
            if let image = article["image"] as? String {
                fields.image = image
            } else if let image = article["image"] as? [String: Any], let url = image["url"] as? String {
                fields.image = url
            } else if let images = article["image"] as? [Any] {
                fields.image = images.first as? String ?? ((images.first as? [String: Any])?["url"] as? String)
            }
            return fields
        }
        return ArticleMetadata()
    }

    private static func isSchemaOrg(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered == "http://schema.org" || lowered == "https://schema.org" || lowered == "http://schema.org/"
            || lowered == "https://schema.org/"
    }

    private static func isArticle(_ type: Any?) -> Bool {
        if let text = type as? String { return articleTypes.contains(text) }
        if let list = type as? [Any] { return list.contains { ($0 as? String).map(articleTypes.contains) ?? false } }
        return false
    }

    /// How much of `b`'s text is also in `a`: 1 when every word of `b` is in `a`.
    static func textSimilarity(_ a: String, _ b: String) -> Double {
        let tokensA = tokens(a)
        let tokensB = tokens(b)
        guard !tokensA.isEmpty, !tokensB.isEmpty else { return 0 }
        let setA = Set(tokensA)
        let unique = tokensB.filter { !setA.contains($0) }
        let total = tokensB.joined(separator: " ").count
        return 1 - Double(unique.joined(separator: " ").count) / Double(total)
    }

    static func tokens(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_")) }).map(String.init)
    }
}

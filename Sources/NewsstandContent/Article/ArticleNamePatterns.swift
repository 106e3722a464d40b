/// The words in class names and ids that tell page furniture from an article, as reader views read
/// them: each pattern is a list of fragments matched anywhere in the lowercased name.
struct ArticleNamePattern {
    let fragments: [[UInt8]]
    /// Whole space-separated words that match too (`hid`).
    let words: [[UInt8]]

    init(fragments: [String], words: [String] = []) {
        self.fragments = fragments.map { Array($0.utf8) }
        self.words = words.map { Array($0.utf8) }
    }

    /// Whether a fragment occurs in `text` (ASCII letters compared without case), or one of `words`
    /// is one of its space-separated words. Reads the text's bytes in place.
    func matches(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { matches(bytes: $0) }
    }

    /// Whether the pattern matches an element's class or its id (as it would their joined `matchString`:
    /// no fragment holds a space).
    func matches(classOrIDOf node: PageNode) -> Bool {
        if let name = node.attributes["class"], matches(name) { return true }
        if let name = node.attributes["id"], matches(name) { return true }
        return false
    }

    private func matches(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.contains(where: { $0 != 0x20 }) else { return false }
        for fragment in fragments where Self.occurs(fragment, in: bytes) { return true }
        guard !words.isEmpty else { return false }
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x20 { end += 1 }
            if end > start {
                for word in words where word.count == end - start {
                    var same = true
                    for offset in 0..<word.count where Self.lowered(bytes[start + offset]) != word[offset] {
                        same = false
                        break
                    }
                    if same { return true }
                }
            }
            start = end + 1
        }
        return false
    }

    @inline(__always)
    private static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }

    private static func occurs(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard needle.count <= haystack.count, let first = needle.first else { return false }
        var start = 0
        let last = haystack.count - needle.count
        while start <= last {
            if lowered(haystack[start]) == first {
                var matched = true
                var offset = 1
                while offset < needle.count {
                    if lowered(haystack[start + offset]) != needle[offset] { matched = false; break }
                    offset += 1
                }
                if matched { return true }
            }
            start += 1
        }
        return false
    }

    /// Names of navigation, comments, footers, sidebars and ads: left out before scoring.
    static let unlikely = ArticleNamePattern(fragments: [
        "-ad-", "ai2html", "banner", "breadcrumbs", "combx", "comment", "community", "cover-wrap", "disqus", "extra",
        "footer", "gdpr", "header", "legends", "menu", "related", "remark", "replies", "rss", "shoutbox", "sidebar",
        "skyscraper", "social", "sponsor", "supplemental", "ad-break", "agegate", "pagination", "pager", "popup",
        "yom-remote",
    ])
    /// Names that keep an element that `unlikely` would drop.
    static let maybeCandidate = ArticleNamePattern(fragments: [
        "and", "article", "body", "column", "content", "main", "mathjax", "shadow",
    ])
    /// Names that add to a candidate's score.
    static let positive = ArticleNamePattern(fragments: [
        "article", "body", "content", "entry", "hentry", "h-entry", "main", "page", "pagination", "post", "text",
        "blog", "story",
    ])
    /// Names that take from a candidate's score.
    static let negative = ArticleNamePattern(fragments: [
        "-ad-", "hidden", "banner", "combx", "comment", "com-", "contact", "footer", "gdpr", "masthead", "media",
        "meta", "outbrain", "promo", "related", "scroll", "share", "shoutbox", "sidebar", "skyscraper", "sponsor",
        "shopping", "tags", "widget",
    ], words: ["hid"])
    /// `share` in any case: a quick look before `isShareName`'s word edges.
    static let share = ArticleNamePattern(fragments: ["share"])
    /// Names of an author line.
    static let byline = ArticleNamePattern(fragments: ["byline", "author", "dateline", "writtenby", "p-author"])

    /// Whether a name holds `share` or `sharedaddy` as a word (word edges or underscores around it).
    static func isShareName(_ text: String) -> Bool {
        guard share.matches(text) else { return false } // no "share" in any case: the slow look is not needed
        let lowered = Array(text.lowercased().unicodeScalars)
        let word: (Unicode.Scalar) -> Bool = { $0.properties.isAlphabetic || $0.properties.numericType != nil }
        for needle in ["share", "sharedaddy"] {
            let pattern = Array(needle.unicodeScalars)
            guard lowered.count >= pattern.count else { continue }
            for start in 0...(lowered.count - pattern.count) where Array(lowered[start..<start + pattern.count]) == pattern {
                let before = start == 0 ? nil : lowered[start - 1]
                let afterIndex = start + pattern.count
                let after = afterIndex < lowered.count ? lowered[afterIndex] : nil
                let edgeBefore = before.map { $0 == "_" || !word($0) } ?? true
                let edgeAfter = after.map { $0 == "_" || !word($0) } ?? true
                if edgeBefore && edgeAfter { return true }
            }
        }
        return false
    }
}

import Foundation

/// Whether a page has an article worth a reader view: enough visible paragraphs of real length
/// outside navigation and comments (each paragraph of more than 140 characters adds the square
/// root of its surplus; the page has an article when the sum passes 20).
enum ReaderableCheck {
    static let minContentLength = 140
    static let minScore = 20.0

    static func isReaderable(_ root: PageNode) -> Bool {
        var nodes: [PageNode] = []
        var seen = Set<ObjectIdentifier>()
        root.forEachDescendant { node in
            if node.name == "p" || node.name == "pre" || node.name == "article" {
                if seen.insert(ObjectIdentifier(node)).inserted { nodes.append(node) }
            } else if node.name == "br", let parent = node.parent, parent.name == "div" {
                if seen.insert(ObjectIdentifier(parent)).inserted { nodes.append(parent) }
            }
        }
        var score = 0.0
        for node in nodes {
            guard ArticleVisibility.isProbablyVisible(node) else { continue }
            if ArticleNamePattern.unlikely.matches(classOrIDOf: node) && !ArticleNamePattern.maybeCandidate.matches(classOrIDOf: node) { continue }
            if node.name == "p", node.hasAncestor(named: "li", maxDepth: 0) { continue }
            let length = node.trimmedTextLength
            if length < minContentLength { continue }
            score += (Double(length - minContentLength)).squareRoot()
            if score > minScore { return true }
        }
        return false
    }
}

/// Whether an element shows: not `hidden`, not `aria-hidden="true"`, not `display: none` or
/// `visibility: hidden` in its own style.
enum ArticleVisibility {
    static func isProbablyVisible(_ node: PageNode) -> Bool {
        if let style = node["style"], isHidingStyle(style) { return false }
        if node["hidden"] != nil { return false }
        if node["aria-hidden"]?.lowercased() == "true", !node.className.contains("fallback-image") { return false }
        return true
    }

    private static let hidingStyles = ArticleNamePattern(fragments: ["display:none", "visibility:hidden"])

    /// Whether a style, lowercased and without white space, holds `display:none` or `visibility:hidden`
    /// (an ASCII style is read in its bytes).
    static func isHidingStyle(_ style: String) -> Bool {
        guard style.utf8.allSatisfy({ $0 < 0x80 }) else {
            let compact = style.lowercased().filter { !$0.isWhitespace }
            return compact.contains("display:none") || compact.contains("visibility:hidden")
        }
        var compact = String.UnicodeScalarView()
        for scalar in style.unicodeScalars where !PageNode.isWhitespace(scalar) { compact.append(scalar) }
        return hidingStyles.matches(String(compact))
    }
}

import Foundation

/// Finds the element that holds a page's article, the way reader views score pages.
///
/// Page furniture is dropped first (hidden elements, names of menus, comments, footers; the
/// author line is kept aside); `<div>`s holding only text become paragraphs. Each paragraph of 25
/// characters or more scores one point, one per comma and one per 100 characters (up to three),
/// given whole to its parent, half to its grandparent and a third of its level above that, five
/// levels up. Candidates start from their tag and class names and lose their share of link text.
/// The best candidate may give way to a common ancestor of close rivals or to a parent scoring
/// higher; its siblings that score well, or read like paragraphs, join it.
struct ArticleCandidateSearch {
    struct Options {
        var stripUnlikely = true
        var weightClasses = true
        var cleanConditionally = true
    }

    var options: Options
    let title: String
    /// The author line found while walking (when the page's metadata names none).
    var byline: String?
    var lookForByline: Bool
    /// The direction given on the article or an ancestor.
    private(set) var dir: String?

    /// Elements taken out when they hold no text and nothing but line breaks.
    static let removedWhenEmpty: Set<String> = ["div", "section", "header", "h1", "h2", "h3", "h4", "h5", "h6"]
    static let tagsToScore: Set<String> = ["section", "h2", "h3", "h4", "h5", "h6", "p", "td", "pre"]
    static let divToParagraphElements: Set<String> = ["blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul"]
    static let alterToDivExceptions: Set<String> = ["div", "article", "section", "p", "ol", "ul"]
    static let unlikelyRoles: Set<String> = ["menu", "menubar", "complementary", "navigation", "alert", "alertdialog", "dialog"]
    static let phrasingElements: Set<String> = [
        "abbr", "audio", "b", "bdo", "br", "button", "cite", "code", "data", "datalist", "dfn", "em", "embed", "i",
        "img", "input", "kbd", "label", "mark", "math", "meter", "noscript", "object", "output", "progress", "q",
        "ruby", "samp", "script", "select", "small", "span", "strong", "sub", "sup", "textarea", "time", "var", "wbr",
    ]
    static let commas: Set<UInt32> = [0x2C, 0x060C, 0xFE50, 0xFE10, 0xFE11, 0x2E41, 0x2E34, 0x2E32, 0xFF0C]

    init(options: Options, title: String, lookForByline: Bool) {
        self.options = options
        self.title = title
        self.lookForByline = lookForByline
    }

    /// Finds the article in `body` (which it changes) and returns it in a new `div`, or nil when the page has no body text.
    mutating func article(in body: PageNode) -> PageNode? {
        var elementsToScore: [PageNode] = []
        var removeTitleHeader = true
        var node: PageNode? = body.elementChildren.first
        while let current = node {
            if !ArticleVisibility.isProbablyVisible(current)
                || (current["aria-modal"] == "true" && current["role"] == "dialog") {
                node = removeAndGetNext(current)
                continue
            }
            if lookForByline, byline == nil, isByline(current) {
                byline = bylineText(current)
                node = removeAndGetNext(current)
                continue
            }
            if removeTitleHeader, headerDuplicatesTitle(current) {
                removeTitleHeader = false
                node = removeAndGetNext(current)
                continue
            }
            if options.stripUnlikely {
                if ArticleNamePattern.unlikely.matches(classOrIDOf: current), !ArticleNamePattern.maybeCandidate.matches(classOrIDOf: current),
                   !current.hasAncestor(named: "table"), !current.hasAncestor(named: "code"),
                   current.name != "body", current.name != "a" {
                    node = removeAndGetNext(current)
                    continue
                }
                if let role = current["role"], Self.unlikelyRoles.contains(role) {
                    node = removeAndGetNext(current)
                    continue
                }
            }
            if Self.removedWhenEmpty.contains(current.name), isWithoutContent(current) {
                node = removeAndGetNext(current)
                continue
            }
            if Self.tagsToScore.contains(current.name) { elementsToScore.append(current) }
            var next = current
            if current.name == "div" {
                wrapPhrasingRuns(in: current)
                let children = current.elementChildren
                if children.count == 1, children[0].name == "p", !Self.hasVisibleTextChild(current),
                   Self.linkDensity(current) < 0.25 {
                    let paragraph = children[0]
                    current.replace(with: paragraph)
                    next = paragraph
                    elementsToScore.append(paragraph)
                } else if !Self.hasChildBlockElement(current) {
                    current.rename("p")
                    elementsToScore.append(current)
                }
            }
            node = next.nextElement()
        }

        var candidates: [PageNode] = []
        for element in elementsToScore {
            guard let parent = element.parent, parent.name != "#document" else { continue }
            let length = element.innerTextLength
            if length < 25 { continue }
            let ancestors = element.ancestors(max: 5)
            if ancestors.isEmpty { continue }
            var score = 1.0
            score += Double(1 + Self.commaCount(element))
            score += Double(min(length / 100, 3))
            for (level, ancestor) in ancestors.enumerated() {
                guard ancestor.parent != nil, ancestor.name != "#document" else { continue }
                if ancestor.score == nil {
                    ancestor.score = initialScore(ancestor)
                    candidates.append(ancestor)
                }
                let divider = level == 0 ? 1.0 : level == 1 ? 2.0 : Double(level * 3)
                ancestor.score! += score / divider
            }
        }

        var top: [PageNode] = []
        let topCount = 5
        for candidate in candidates {
            let score = candidate.score! * (1 - Self.linkDensity(candidate))
            candidate.score = score
            if let position = top.firstIndex(where: { score > $0.score! }) {
                top.insert(candidate, at: position)
                if top.count > topCount { top.removeLast() }
            } else if top.count < topCount {
                top.append(candidate)
            }
        }

        var topCandidate: PageNode
        if let best = top.first, best.name != "body" {
            topCandidate = best
            // Close rivals (75% of the best) that share an ancestor: that ancestor holds the article.
            let rivals = top.dropFirst().filter { $0.score! / best.score! >= 0.75 }.map { Set($0.ancestors().map(ObjectIdentifier.init)) }
            if rivals.count >= 3 {
                var ancestor = best.parent
                while let current = ancestor, current.name != "body", current.name != "#document" {
                    if rivals.filter({ $0.contains(ObjectIdentifier(current)) }).count >= 3 {
                        topCandidate = current
                        break
                    }
                    ancestor = current.parent
                }
            }
            if topCandidate.score == nil { topCandidate.score = initialScore(topCandidate) }
            // A parent scoring higher than the best is a better one.
            var parent = topCandidate.parent
            var lastScore = topCandidate.score!
            let threshold = lastScore / 3
            while let current = parent, current.name != "body", current.name != "#document" {
                guard let parentScore = current.score else {
                    parent = current.parent
                    continue
                }
                if parentScore < threshold { break }
                if parentScore > lastScore {
                    topCandidate = current
                    break
                }
                lastScore = parentScore
                parent = current.parent
            }
            // An only child gives way to its parent, so the siblings below are the parent's.
            while let current = topCandidate.parent, current.name != "body", current.name != "#document",
                  current.elementChildren.count == 1 {
                topCandidate = current
            }
            if topCandidate.score == nil { topCandidate.score = initialScore(topCandidate) }
        } else {
            let container = PageNode(name: "div")
            body.moveChildren(to: container)
            body.append(container)
            container.score = initialScore(container)
            topCandidate = container
        }

        let article = PageNode(name: "div")
        let topScore = topCandidate.score ?? 0
        let siblingThreshold = max(10, topScore * 0.2)
        guard let parentOfTop = topCandidate.parent else { return nil }
        for sibling in parentOfTop.elementChildren {
            var append = false
            if sibling === topCandidate {
                append = true
            } else {
                var bonus = 0.0
                if !topCandidate.className.isEmpty, sibling.className == topCandidate.className { bonus += topScore * 0.2 }
                if let score = sibling.score, score + bonus >= siblingThreshold {
                    append = true
                } else if sibling.name == "p" {
                    let density = Self.linkDensity(sibling)
                    let content = sibling.innerText
                    let length = content.utf16.count
                    if length > 80 && density < 0.25 {
                        append = true
                    } else if length < 80, length > 0, density == 0, Self.hasSentenceEnd(content) {
                        append = true
                    }
                }
            }
            if append {
                if !Self.alterToDivExceptions.contains(sibling.name) { sibling.rename("div") }
                article.append(sibling)
            }
        }
        // The direction set on the article or around it.
        for candidate in [parentOfTop, topCandidate] + parentOfTop.ancestors() {
            if let direction = candidate["dir"], !direction.isEmpty {
                dir = direction
                break
            }
        }
        return article
    }

    // MARK: Scores

    func initialScore(_ node: PageNode) -> Double {
        var score = 0.0
        switch node.name {
        case "div": score += 5
        case "pre", "td", "blockquote": score += 3
        case "address", "ol", "ul", "dl", "dd", "dt", "li", "form": score -= 3
        case "h1", "h2", "h3", "h4", "h5", "h6", "th": score -= 5
        default: break
        }
        return score + classWeight(node)
    }

    func classWeight(_ node: PageNode) -> Double {
        guard options.weightClasses else { return 0 }
        var weight = 0.0
        for name in [node.className, node.identifier] where !name.isEmpty {
            if ArticleNamePattern.negative.matches(name) { weight -= 25 }
            if ArticleNamePattern.positive.matches(name) { weight += 25 }
        }
        return weight
    }

    /// The share of an element's text that is link text (links to the same page count 0.3).
    static func linkDensity(_ node: PageNode) -> Double {
        let length = node.innerTextLength
        guard length > 0 else { return 0 }
        return node.linkTextLength / Double(length)
    }

    /// The commas (in the scripts that have them) in an element's text.
    static func commaCount(_ node: PageNode) -> Int {
        var count = 0
        node.forEachDescendant { descendant in
            guard descendant.isText else { return }
            for scalar in descendant.text.unicodeScalars {
                switch scalar.value {
                case 0x2C, 0x060C, 0xFE50, 0xFE10, 0xFE11, 0x2E41, 0x2E34, 0x2E32, 0xFF0C: count += 1 // `commas`
                default: break
                }
            }
        }
        return count
    }

    /// Whether a text child holds more than white space.
    static func hasVisibleTextChild(_ node: PageNode) -> Bool {
        var child = node.firstChild
        while let current = child {
            if current.isText, current.hasVisibleText { return true }
            child = current.nextSibling
        }
        return false
    }

    private static func hasSentenceEnd(_ text: String) -> Bool {
        var previousWasPeriod = false
        for character in text {
            if previousWasPeriod && character == " " { return true }
            previousWasPeriod = character == "."
        }
        return previousWasPeriod
    }

    // MARK: Walking helpers

    private func removeAndGetNext(_ node: PageNode) -> PageNode? {
        let next = node.nextElement(skippingChildren: true)
        node.detach()
        return next
    }

    private func isByline(_ node: PageNode) -> Bool {
        let rel = node["rel"]
        let itemprop = node["itemprop"] ?? ""
        guard rel == "author" || itemprop.contains("author") || ArticleNamePattern.byline.matches(classOrIDOf: node) else { return false }
        let length = node.trimmedTextLength
        return length > 0 && length < 100
    }

    private func bylineText(_ node: PageNode) -> String {
        var nameNode: PageNode?
        node.forEachDescendant { descendant in
            if nameNode == nil, let itemprop = descendant["itemprop"], itemprop.contains("name") { nameNode = descendant }
        }
        return (nameNode ?? node).textContent.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func headerDuplicatesTitle(_ node: PageNode) -> Bool {
        guard node.name == "h1" || node.name == "h2" else { return false }
        let heading = node.textContent.trimmingCharacters(in: .whitespacesAndNewlines)
        return ArticleMetadata.textSimilarity(title, heading) > 0.75
    }

    private func isWithoutContent(_ node: PageNode) -> Bool {
        if node.hasVisibleText { return false }
        let children = node.elementChildren
        if children.isEmpty { return true }
        let breaks = node.elements(named: ["br", "hr"]).count
        return children.count == breaks
    }

    static func hasChildBlockElement(_ node: PageNode) -> Bool {
        node.contains(named: divToParagraphElements)
    }

    static func isPhrasingContent(_ node: PageNode) -> Bool {
        if node.isText || phrasingElements.contains(node.name) { return true }
        guard ["a", "del", "ins"].contains(node.name) else { return false }
        var stack = node.children
        while let child = stack.popLast() {
            if child.isText || phrasingElements.contains(child.name) { continue }
            if ["a", "del", "ins"].contains(child.name) {
                stack.append(contentsOf: child.children)
                continue
            }
            return false
        }
        return true
    }

    static func isWhitespace(_ node: PageNode) -> Bool {
        node.isBlankText || node.name == "br"
    }

    /// Runs of text and inline elements directly in a `div` that also holds blocks become paragraphs.
    private func wrapPhrasingRuns(in div: PageNode) {
        var child = div.firstChild
        while let current = child, Self.isPhrasingContent(current) { child = current.nextSibling }
        guard child != nil else {
            return // only phrasing content: the div becomes a paragraph itself
        }
        var node = div.firstChild
        while let start = node {
            guard Self.isPhrasingContent(start) else {
                node = start.nextSibling
                continue
            }
            var run: [PageNode] = []
            var end: PageNode? = start
            while let current = end, Self.isPhrasingContent(current) {
                run.append(current)
                end = current.nextSibling
            }
            node = end
            while let first = run.first, Self.isWhitespace(first) { run.removeFirst() }
            while let last = run.last, Self.isWhitespace(last) { run.removeLast() }
            guard !run.isEmpty else { continue }
            let paragraph = PageNode(name: "p")
            div.insert(paragraph, before: run[0])
            for member in run { paragraph.append(member) }
        }
    }
}

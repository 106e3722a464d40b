import Foundation

/// A node of a web page while its article is looked for: an element or a run of text in a
/// mutable tree, which the extractor reshapes (removes, renames, moves) as it goes.
///
/// Elements keep their lowercased name and attributes; `score` is the content score the article
/// scoring gives a candidate (nil until it is one). Every walk over the tree is iterative, so a
/// deep page costs time in proportion to its size and never the stack.
///
/// Each node keeps its subtree's `TextSummary` (the length of its text as `innerText` counts it, and
/// of its link text) once asked, so scoring and cleaning read lengths without walking again; any
/// change below a node (children moved, text, a name or an attribute changed) forgets the summaries
/// of it and its ancestors.
final class PageNode {
    /// Lowercased element name; `#text` for text.
    var name: String {
        didSet { parent?.forgetSummaries() }
    }
    var attributes: [String: String] {
        didSet { parent?.forgetSummaries() }
    }
    /// A text node's text (entities decoded).
    var text: String {
        didSet { forgetSummaries() }
    }
    /// The subtree's text summary, nil until asked or after a change below. Invariant: when a node
    /// has one, so do all its descendants (so forgetting can stop at the first ancestor without one).
    private var summary: TextSummary?
    private(set) var firstChild: PageNode?
    // Back links are unowned: a linked node is kept by its parent's or previous sibling's strong link,
    // and a node going away clears its children's back links (deinit), so none is ever left dangling.
    private(set) unowned(unsafe) var lastChild: PageNode?
    private(set) var nextSibling: PageNode?
    private(set) unowned(unsafe) var previousSibling: PageNode?
    private(set) unowned(unsafe) var parent: PageNode?
    /// The content score, once the node is a candidate.
    var score: Double?
    /// Set on tables: whether the table holds data rather than page layout.
    var isDataTable = false

    init(name: String, attributes: [String: String] = [:]) {
        self.name = name
        self.attributes = attributes
        self.text = ""
    }

    init(text: String) {
        self.name = "#text"
        self.attributes = [:]
        self.text = text
    }

    /// Children are released one by one, so a long run of siblings never recurses.
    deinit {
        var node = firstChild
        firstChild = nil
        lastChild = nil
        while let current = node {
            node = current.nextSibling
            current.nextSibling = nil
            current.previousSibling = nil
            current.parent = nil
        }
    }

    var isText: Bool { name == "#text" }
    var isElement: Bool { name != "#text" }

    subscript(attribute: String) -> String? {
        get { attributes[attribute] }
        set { attributes[attribute] = newValue }
    }

    var className: String { attributes["class"] ?? "" }
    var identifier: String { attributes["id"] ?? "" }
    /// Class and id together, as the weights and the unlikely-names rules read them.
    var matchString: String { className + " " + identifier }

    /// The children in order (a new array: walk `firstChild`/`nextSibling` where it matters).
    var children: [PageNode] {
        var result: [PageNode] = []
        var node = firstChild
        while let current = node {
            result.append(current)
            node = current.nextSibling
        }
        return result
    }

    var hasChildren: Bool { firstChild != nil }

    var elementChildren: [PageNode] { children.filter(\.isElement) }

    // MARK: Changing the tree

    func append(_ child: PageNode) {
        child.detach()
        forgetSummaries()
        child.parent = self
        if let last = lastChild {
            last.nextSibling = child
            child.previousSibling = last
        } else {
            firstChild = child
        }
        lastChild = child
    }

    /// Inserts `child` before `sibling` (a child of this node), or at the end when nil.
    func insert(_ child: PageNode, before sibling: PageNode?) {
        guard let sibling, sibling.parent === self, sibling !== child else { return append(child) }
        child.detach()
        forgetSummaries()
        child.parent = self
        child.nextSibling = sibling
        child.previousSibling = sibling.previousSibling
        if let previous = sibling.previousSibling { previous.nextSibling = child } else { firstChild = child }
        sibling.previousSibling = child
    }

    /// Takes the node out of its parent.
    func detach() {
        guard let parent else { return }
        parent.forgetSummaries()
        let next = nextSibling
        if let previous = previousSibling { previous.nextSibling = next } else { parent.firstChild = next }
        if let next { next.previousSibling = previousSibling } else { parent.lastChild = previousSibling }
        nextSibling = nil
        previousSibling = nil
        self.parent = nil
    }

    /// Puts `other` where this node is.
    func replace(with other: PageNode) {
        guard let parent, other !== self else { return }
        other.detach()
        parent.insert(other, before: self)
        detach()
    }

    /// Moves all children into `other` (appended).
    func moveChildren(to other: PageNode) {
        while let child = firstChild { other.append(child) }
    }

    /// Renames the element in place (the tree keeps its shape).
    func rename(_ newName: String) { name = newName }

    var previousElementSibling: PageNode? {
        var node = previousSibling
        while let current = node, !current.isElement { node = current.previousSibling }
        return node
    }

    var nextElementSibling: PageNode? {
        var node = nextSibling
        while let current = node, !current.isElement { node = current.nextSibling }
        return node
    }

    var firstElementChild: PageNode? {
        var node = firstChild
        while let current = node, !current.isElement { node = current.nextSibling }
        return node
    }

    // MARK: Walking

    /// The next element in document order: the first child unless `skippingChildren`, else a sibling or an ancestor's sibling.
    func nextElement(skippingChildren: Bool = false) -> PageNode? {
        if !skippingChildren, let first = firstElementChild { return first }
        var node: PageNode? = self
        while let current = node {
            if let sibling = current.nextElementSibling { return sibling }
            node = current.parent
        }
        return nil
    }

    /// Every descendant (self excluded) in document order, elements and text.
    func forEachDescendant(_ body: (PageNode) -> Void) {
        _ = firstDescendant { body($0); return false }
    }

    /// Descendants (self excluded) in document order; `visit` says whether to go below the one it is given.
    func walkDescendants(_ visit: (PageNode) -> Bool) {
        var node = firstChild
        while let current = node {
            node = visit(current) ? current.firstChild ?? following(current) : following(current)
        }
    }

    /// The first descendant (self excluded, document order) that passes `test`; the walk stops there.
    func firstDescendant(where test: (PageNode) -> Bool) -> PageNode? {
        var node = firstChild
        while let current = node {
            if test(current) { return current }
            node = current.firstChild ?? following(current)
        }
        return nil
    }

    /// The node after `node`'s subtree in document order, within this node's descendants (nil at their end).
    @inline(__always)
    private func following(_ node: PageNode) -> PageNode? {
        var climb: PageNode? = node
        while let step = climb, step !== self {
            if let sibling = step.nextSibling { return sibling }
            climb = step.parent
        }
        return nil
    }

    /// Descendant elements whose name is one of `names`, in document order.
    func elements(named names: Set<String>) -> [PageNode] {
        var found: [PageNode] = []
        forEachDescendant { if names.contains($0.name) { found.append($0) } }
        return found
    }

    func elements(named name: String) -> [PageNode] {
        var found: [PageNode] = []
        forEachDescendant { if $0.name == name { found.append($0) } }
        return found
    }

    func contains(named names: Set<String>) -> Bool {
        firstDescendant { names.contains($0.name) } != nil
    }

    func ancestors(max: Int = 0) -> [PageNode] {
        var found: [PageNode] = []
        var node = parent
        while let current = node {
            found.append(current)
            if max > 0, found.count == max { break }
            node = current.parent
        }
        return found
    }

    /// Whether an ancestor within `maxDepth` steps (0: any) is named `name` and passes `filter`.
    func hasAncestor(named name: String, maxDepth: Int = 3, where filter: ((PageNode) -> Bool)? = nil) -> Bool {
        var depth = 0
        var node = parent
        while let current = node {
            if maxDepth > 0, depth > maxDepth { return false }
            if current.name == name, filter?(current) ?? true { return true }
            node = current.parent
            depth += 1
        }
        return false
    }

    // MARK: Text

    /// All text below, verbatim.
    var textContent: String {
        if isText { return text }
        var result = ""
        forEachDescendant { if $0.isText { result += $0.text } }
        return result
    }

    /// The text trimmed, with runs of white space made one space.
    var innerText: String { PageNode.normalized(textContent) }

    /// The length of `innerText` in UTF-16 units (as a browser counts), counted without building it.
    var innerTextLength: Int { textSummary.length }

    /// The length of `textContent` trimmed of white space at both ends, in UTF-16 units (as
    /// `trimmingCharacters(in: .whitespacesAndNewlines).utf16.count` counts it), without building it.
    var trimmedTextLength: Int {
        var total = 0
        var sawContent = false
        var leading = 0
        var trailing = 0
        func count(_ text: String) {
            for scalar in text.unicodeScalars {
                let units = scalar.value > 0xFFFF ? 2 : 1
                total += units
                if PageNode.isWhitespace(scalar) {
                    if sawContent { trailing += units } else { leading += units }
                } else {
                    sawContent = true
                    trailing = 0
                }
            }
        }
        if isText {
            count(text)
        } else {
            forEachDescendant { if $0.isText { count($0.text) } }
        }
        return sawContent ? total - leading - trailing : 0
    }

    /// Whether the text holds anything but white space.
    var hasVisibleText: Bool { textSummary.length > 0 }

    /// The length of the text inside descendant links (`<a>`, nested ones counted again), links
    /// to a place on the same page (`#…`) counting 0.3.
    var linkTextLength: Double {
        let summary = textSummary
        return Double(summary.linkLength) + Double(summary.samePageLinkLength) * 0.3
    }

    /// What a subtree's text amounts to, combined from its children's.
    struct TextSummary {
        /// `innerText`'s length in UTF-16 units.
        var length = 0
        /// White space before the first visible character (or anywhere, when there is none).
        var leadingSpace = false
        /// White space after the last visible character (or anywhere, when there is none).
        var trailingSpace = false
        /// `innerTextLength` of descendant links to other pages, summed.
        var linkLength = 0
        /// `innerTextLength` of descendant links to the same page (`#…`), summed.
        var samePageLinkLength = 0

        init() {}

        init(text: String) {
            var pendingSpace = false
            for scalar in text.unicodeScalars {
                if PageNode.isWhitespace(scalar) {
                    if length == 0 { leadingSpace = true }
                    pendingSpace = true
                } else {
                    if pendingSpace && length > 0 { length += 1 }
                    pendingSpace = false
                    length += scalar.value > 0xFFFF ? 2 : 1
                }
            }
            trailingSpace = pendingSpace
        }

        /// Appends the text summed up by `next` (as `innerText` joins them: one space where any was).
        mutating func append(_ next: TextSummary) {
            if length == 0 {
                leadingSpace = leadingSpace || next.leadingSpace
                trailingSpace = next.length == 0 ? (trailingSpace || next.trailingSpace) : next.trailingSpace
                length = next.length
            } else if next.length == 0 {
                trailingSpace = trailingSpace || next.trailingSpace
            } else {
                length += next.length + (trailingSpace || next.leadingSpace ? 1 : 0)
                trailingSpace = next.trailingSpace
            }
            linkLength += next.linkLength
            samePageLinkLength += next.samePageLinkLength
        }
    }

    /// The subtree's summary: kept ones reused, the rest computed bottom-up without recursion.
    var textSummary: TextSummary {
        if let summary { return summary }
        var stack: [(node: PageNode, childrenDone: Bool)] = [(self, false)]
        while let (node, childrenDone) = stack.popLast() {
            if node.summary != nil { continue }
            if node.isText {
                node.summary = TextSummary(text: node.text)
                continue
            }
            if !childrenDone {
                stack.append((node, true))
                var child = node.firstChild
                while let current = child {
                    if current.summary == nil { stack.append((current, false)) }
                    child = current.nextSibling
                }
                continue
            }
            var combined = TextSummary()
            var child = node.firstChild
            while let current = child {
                let part = current.summary!
                combined.append(part)
                if current.name == "a" {
                    let href = current.attributes["href"] ?? ""
                    if href.count > 1 && href.hasPrefix("#") {
                        combined.samePageLinkLength += part.length
                    } else {
                        combined.linkLength += part.length
                    }
                }
                child = current.nextSibling
            }
            node.summary = combined
        }
        return summary!
    }

    /// Forgets this node's and its ancestors' summaries after a change below.
    func forgetSummaries() {
        var node: PageNode? = self
        while let current = node, current.summary != nil {
            current.summary = nil
            node = current.parent
        }
    }

    /// White space as `String.trim` and `\s` see it, ASCII answered without a property lookup.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 { return value == 0x20 || (value >= 0x09 && value <= 0x0D) }
        return scalar.properties.isWhitespace
    }

    static func normalized(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isWhitespace(scalar) {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Whether the text is only white space (as `Character.isWhitespace` sees it; ASCII text is
    /// answered from its bytes, where each byte is a character or part of CR LF).
    var isBlankText: Bool {
        guard isText else { return false }
        var allASCII = true
        var blank = true
        for byte in text.utf8 {
            if byte >= 0x80 {
                allASCII = false
                break
            }
            if !(byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)) { blank = false }
        }
        return allASCII ? blank : text.allSatisfy(\.isWhitespace)
    }

    /// A deep copy (no parent), summaries kept.
    func copy() -> PageNode {
        let root = PageNode(name: name, attributes: attributes)
        root.text = text
        var stack: [(PageNode, PageNode)] = [(self, root)]
        while let (source, target) = stack.popLast() {
            var child = source.firstChild
            while let current = child {
                let clone = PageNode(name: current.name, attributes: current.attributes)
                clone.text = current.text
                clone.summary = current.summary
                // Linked directly: the clone is new, and the target's summary is set from its source's.
                clone.parent = target
                if let last = target.lastChild {
                    last.nextSibling = clone
                    clone.previousSibling = last
                } else {
                    target.firstChild = clone
                }
                target.lastChild = clone
                if current.firstChild != nil { stack.append((current, clone)) }
                child = current.nextSibling
            }
        }
        root.summary = summary
        return root
    }
}

import Foundation

/// A node of a web page while its article is looked for: an element or a run of text in a
/// mutable tree, which the extractor reshapes (removes, renames, moves) as it goes.
///
/// Elements keep their lowercased name and attributes; `score` is the content score the article
/// scoring gives a candidate (nil until it is one). Every walk over the tree is iterative, so a
/// deep page costs time in proportion to its size and never the stack.
final class PageNode {
    /// Lowercased element name; `#text` for text.
    var name: String
    var attributes: [String: String]
    /// A text node's text (entities decoded).
    var text: String
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
        child.parent = self
        child.nextSibling = sibling
        child.previousSibling = sibling.previousSibling
        if let previous = sibling.previousSibling { previous.nextSibling = child } else { firstChild = child }
        sibling.previousSibling = child
    }

    /// Takes the node out of its parent.
    func detach() {
        guard let parent else { return }
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
        var node = firstChild
        while let current = node {
            body(current)
            if let child = current.firstChild {
                node = child
                continue
            }
            var climb: PageNode? = current
            node = nil
            while let step = climb, step !== self {
                if let sibling = step.nextSibling {
                    node = sibling
                    break
                }
                climb = step.parent
            }
        }
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
        var found = false
        forEachDescendant { if !found, names.contains($0.name) { found = true } }
        return found
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
    var innerTextLength: Int {
        var length = 0
        var pendingSpace = false
        func count(_ text: String) {
            for scalar in text.unicodeScalars {
                if PageNode.isWhitespace(scalar) {
                    pendingSpace = length > 0
                } else {
                    if pendingSpace { length += 1 }
                    pendingSpace = false
                    length += scalar.value > 0xFFFF ? 2 : 1
                }
            }
        }
        if isText {
            count(text)
        } else {
            forEachDescendant { if $0.isText { count($0.text) } }
        }
        return length
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

    /// Whether the text is only white space.
    var isBlankText: Bool { isText && text.allSatisfy(\.isWhitespace) }

    /// A deep copy (no parent).
    func copy() -> PageNode {
        let root = PageNode(name: name, attributes: attributes)
        root.text = text
        var stack: [(PageNode, PageNode)] = [(self, root)]
        while let (source, target) = stack.popLast() {
            var child = source.firstChild
            while let current = child {
                let clone = PageNode(name: current.name, attributes: current.attributes)
                clone.text = current.text
                target.append(clone)
                if current.firstChild != nil { stack.append((current, clone)) }
                child = current.nextSibling
            }
        }
        return root
    }
}

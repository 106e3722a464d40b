/// A node of a parsed XML or HTML document: an element or a run of text.
///
/// Both the strict XML pass (`XMLTreeParser`) and the lenient pass through libxml2's HTML parser
/// (`HTMLTreeParser`) produce these, so everything downstream works the same whichever pass succeeded.
enum MarkupNode: Sendable, Equatable {
    case element(MarkupElement)
    case text(String)
}

/// An element with its local name (lowercased for HTML), attributes and children.
struct MarkupElement: Sendable, Equatable {
    var name: String
    var attributes: [String: String]
    var children: [MarkupNode]

    init(name: String, attributes: [String: String] = [:], children: [MarkupNode] = []) {
        self.name = name
        self.attributes = attributes
        self.children = children
    }

    /// The value of the attribute whose local name is `localName` (any prefix, any case).
    func attribute(_ localName: String) -> String? {
        if let value = attributes[localName] { return value }
        let wanted = localName.lowercased()
        for (key, value) in attributes {
            let local = key.split(separator: ":").last.map(String.init) ?? key
            if local.lowercased() == wanted { return value }
        }
        return nil
    }

    /// Attribute tokens separated by whitespace, e.g. `epub:type="toc landmarks"`.
    func attributeTokens(_ localName: String) -> [String] {
        attribute(localName)?.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init) ?? []
    }

    var childElements: [MarkupElement] {
        children.compactMap { if case .element(let element) = $0 { return element } else { return nil } }
    }

    func firstChild(named name: String) -> MarkupElement? {
        for case .element(let element) in children where element.name == name { return element }
        return nil
    }

    func children(named name: String) -> [MarkupElement] {
        childElements.filter { $0.name == name }
    }

    /// The first element in document order (depth first, self included) that matches.
    func firstDescendant(where matches: (MarkupElement) -> Bool) -> MarkupElement? {
        if matches(self) { return self }
        for case .element(let element) in children {
            if let found = element.firstDescendant(where: matches) { return found }
        }
        return nil
    }

    /// Every descendant element in document order (self excluded) that matches.
    func descendants(where matches: (MarkupElement) -> Bool) -> [MarkupElement] {
        var found: [MarkupElement] = []
        collect(into: &found, where: matches)
        return found
    }

    private func collect(into found: inout [MarkupElement], where matches: (MarkupElement) -> Bool) {
        for case .element(let element) in children {
            if matches(element) { found.append(element) }
            element.collect(into: &found, where: matches)
        }
    }

    /// All text below this element, verbatim.
    var textContent: String {
        var text = ""
        appendText(to: &text)
        return text
    }

    private func appendText(to text: inout String) {
        for child in children {
            switch child {
            case .text(let run): text += run
            case .element(let element): element.appendText(to: &text)
            }
        }
    }

    /// All text below this element with runs of whitespace collapsed to single spaces and trimmed.
    var collapsedText: String {
        WhitespaceCollapsing.collapse(textContent)
    }
}

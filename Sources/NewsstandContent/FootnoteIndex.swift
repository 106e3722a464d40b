import Foundation

/// Finds a document's footnotes before it is set: which anchors are note references and which
/// elements hold the notes (so they are left out of the running text and collected at the end).
///
/// A reference is an `<a>` whose `href` is a fragment of the same document and which is marked
/// `epub:type="noteref"` (or `role="doc-noteref"`), or points at an element marked as a note
/// (`epub:type` footnote, endnote, rearnote or note; `role` doc-footnote or doc-endnote), or is a
/// short marker (at most 6 characters, or inside `<sup>`) pointing forward at an element with short
/// text. Anchors inside notes (links back to the reference) are never references.
/// Elements are named by their path of child indices from the root.
struct FootnoteIndex {
    /// Anchor path → the path of the element holding the note's text.
    private(set) var references: [[Int]: [Int]] = [:]
    /// Every element holding a note (referenced or not), in document order.
    private(set) var notes: [[Int]] = []
    private var noteSet: Set<[Int]> = []

    static let noteTypes: Set<String> = ["footnote", "endnote", "rearnote", "note", "doc-footnote", "doc-endnote"]
    static let maximumNoteLength = 400
    private static let noteContainers: Set<String> = ["p", "li", "div", "aside", "dd", "dt", "blockquote", "td", "section", "footer", "span"]
    private static let neverNotes: Set<String> = ["#document", "html", "body", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ol", "ul", "nav", "main", "article"]

    init(root: MarkupElement) {
        var ids: [String: [Int]] = [:]
        var anchors: [(path: [Int], element: MarkupElement, insideSup: Bool)] = []
        var typedNotes: [[Int]] = []
        func walk(_ element: MarkupElement, path: [Int], insideSup: Bool, insideNote: Bool) {
            for case (let index, .element(let child)) in element.children.enumerated() {
                let childPath = path + [index]
                if let id = child.attribute("id"), ids[id] == nil { ids[id] = childPath }
                let isNote = Self.isNoteElement(child)
                if isNote && !insideNote { typedNotes.append(childPath) }
                if child.name == "a", !insideNote, let href = child.attribute("href"), href.hasPrefix("#") {
                    anchors.append((childPath, child, insideSup))
                }
                walk(child, path: childPath, insideSup: insideSup || child.name == "sup", insideNote: insideNote || isNote)
            }
        }
        walk(root, path: [], insideSup: false, insideNote: false)
        for path in typedNotes { add(path) }

        for anchor in anchors {
            let fragment = String(anchor.element.attribute("href")!.dropFirst())
            let id = fragment.removingPercentEncoding ?? fragment
            guard !id.isEmpty, let targetPath = ids[id] else { continue }
            let explicit = anchor.element.attributeTokens("type").contains("noteref") || anchor.element.attributeTokens("role").contains("doc-noteref")
            let typedContainer = typedNotes.first { targetPath.starts(with: $0) }
            var container: [Int]?
            if let typedContainer {
                container = typedContainer
            } else {
                let markerText = WhitespaceCollapsing.collapse(TextBlockBuilder.readableText(of: anchor.element))
                let looksLikeMarker = anchor.insideSup || anchor.element.firstDescendant(where: { $0.name == "sup" }) != nil
                    || (!markerText.isEmpty && markerText.count <= 6)
                // A plain marker points forward to its note; one pointing back is a note's way back to its reference.
                guard explicit || looksLikeMarker && targetPath.lexicographicallyPrecedes(anchor.path) == false else { continue }
                if notes.contains(where: { anchor.path.starts(with: $0) }) { continue }
                container = Self.container(for: targetPath, in: root)
                if let found = container {
                    let text = WhitespaceCollapsing.collapse(TextBlockBuilder.readableText(of: Self.element(at: found, in: root)))
                    if text.isEmpty || text.count > Self.maximumNoteLength { container = nil }
                }
            }
            // A reference inside its own note (or a note around its reference) is not a footnote.
            guard let container, !anchor.path.starts(with: container) else { continue }
            references[anchor.path] = container
            add(container)
        }
    }

    private mutating func add(_ path: [Int]) {
        guard !noteSet.contains(path) else { return }
        // A note nested inside another note belongs to the outer one.
        if noteSet.contains(where: { path.starts(with: $0) }) { return }
        noteSet.insert(path)
        notes.append(path)
    }

    /// Whether the element at `path` is a note (left out of the running text).
    func isNote(_ path: [Int]) -> Bool { noteSet.contains(path) }

    static func isNoteElement(_ element: MarkupElement) -> Bool {
        element.attributeTokens("type").contains { noteTypes.contains($0) }
            || element.attributeTokens("role").contains { noteTypes.contains($0) }
    }

    /// The element at `path` when it can hold a note by itself, else its nearest ancestor that can.
    private static func container(for path: [Int], in root: MarkupElement) -> [Int]? {
        var candidate = path
        while !candidate.isEmpty {
            let element = element(at: candidate, in: root)
            if neverNotes.contains(element.name) { return nil }
            if noteContainers.contains(element.name), element.name != "span" || candidate == path {
                // A bare anchor target such as <a id="fn1"/> has no text; take its block instead.
                if WhitespaceCollapsing.hasContent(TextBlockBuilder.readableText(of: element)) { return candidate }
            }
            candidate.removeLast()
        }
        return nil
    }

    static func element(at path: [Int], in root: MarkupElement) -> MarkupElement {
        var element = root
        for index in path {
            guard case .element(let child) = element.children[index] else { return element }
            element = child
        }
        return element
    }
}

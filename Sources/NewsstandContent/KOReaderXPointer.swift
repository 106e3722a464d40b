import Foundation

/// Positions in an EPUB as KOReader (crengine) writes them: `/body/DocFragment[N]/body/div/p[7]/text().123` — N the
/// spine item (1-based), then the element path inside that chapter's `<body>` (an element's 1-based index among its
/// siblings of the same name, written when there is more than one), then the text node (`text()`, `text()[k]` when
/// the element holds several) and a character offset into it.
///
/// Our positions are a text block of an article and how many characters other than white space into it the top line
/// starts (`ReadingPosition`). To go between the two, the chapter's document is read again and each text block is
/// matched, in order, with the innermost element whose text starts with the block's (`ChapterDocument`).
public enum KOReaderXPointer {
    /// A parsed XPointer: the spine item, the element steps below the chapter's `<body>`, and the text node and offset.
    public struct Parsed: Sendable, Equatable {
        public var fragment: Int
        /// Element names and 1-based indexes below `body`.
        public var steps: [Step]
        /// The 1-based text node of the last element, and the character offset in it; nil when the pointer ends at an
        /// element.
        public var textNode: Int?
        public var offset: Int?

        public struct Step: Sendable, Equatable {
            public var name: String
            public var index: Int
        }
    }

    /// Reads `/body/DocFragment[N]/body/…/text()[k].O` (or any shorter form: the fragment alone, an element, a
    /// `.O` after an element); nil when it is not one (a PDF's page number, say).
    public static func parse(_ text: String) -> Parsed? {
        guard text.count <= 4096, text.hasPrefix("/body/DocFragment[") else { return nil }
        var parts = text.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count >= 2, parts[0] == "body", let fragment = index(of: parts[1], name: "DocFragment"), fragment >= 1 else { return nil }
        parts.removeFirst(2)
        var parsed = Parsed(fragment: fragment, steps: [], textNode: nil, offset: nil)
        if parts.first == "body" { parts.removeFirst() }
        for (position, part) in parts.enumerated() {
            var step = part
            var offset: Int?
            if let dot = step.lastIndex(of: "."), step[step.index(after: dot)...].allSatisfy(\.isNumber), dot != step.startIndex {
                offset = Int(step[step.index(after: dot)...])
                step = String(step[..<dot])
            }
            if step.hasPrefix("text()") {
                guard position == parts.count - 1 else { return nil }
                let rest = step.dropFirst("text()".count)
                if rest.isEmpty {
                    parsed.textNode = 1
                } else {
                    guard rest.hasPrefix("["), rest.hasSuffix("]"), let number = Int(rest.dropFirst().dropLast()), number >= 1 else { return nil }
                    parsed.textNode = number
                }
                parsed.offset = offset ?? 0
                return parsed
            }
            let name = step.prefix { $0 != "[" }
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ":" }) else { return nil }
            let number = step.count == name.count ? 1 : index(of: step, name: String(name))
            guard let number, number >= 1 else { return nil }
            parsed.steps.append(.init(name: String(name).lowercased(), index: number))
            if let offset {
                guard position == parts.count - 1 else { return nil }
                parsed.offset = offset
            }
        }
        return parsed
    }

    private static func index(of part: String, name: String) -> Int? {
        guard part.hasPrefix(name + "["), part.hasSuffix("]") else { return nil }
        return Int(part.dropFirst(name.count + 1).dropLast())
    }

    /// The XPointer of a block and offset of an article (spine item `fragment`, its document `data`, its `blocks`).
    /// A block matched with no element (a picture, a generated note) is written as the nearest earlier block that
    /// has one; none at all, as the chapter. (Many positions in one chapter: make a `ChapterDocument` once.)
    public static func write(fragment: Int, document data: Data, blocks: [TextBlock], blockIndex: Int, characterOffset: Int) -> String {
        ChapterDocument(data: data, blocks: blocks).pointer(fragment: fragment, blockIndex: blockIndex, characterOffset: characterOffset)
    }

    /// The block and offset an XPointer names in an article (its document and blocks); nil when its element path
    /// does not resolve in this document (then the caller goes by the chapter and percentage).
    public static func resolve(_ pointer: Parsed, document data: Data, blocks: [TextBlock]) -> (blockIndex: Int, characterOffset: Int)? {
        ChapterDocument(data: data, blocks: blocks).resolve(pointer)
    }
}

/// A chapter's document flattened for XPointers: its elements in document order (each with its parent, its subtree's
/// extent and its step name), its text nodes in order, and which element each text block was made from.
public struct ChapterDocument: Sendable {
    struct Element {
        var name: String
        var parent: Int?
        /// Its step: the name, and the 1-based index among same-named siblings when there are several.
        var step: String
        /// Elements `index..<end` are it and its descendants.
        var end = 0
        /// Its text nodes (direct children that are not only white space), in order, as indexes into `texts`.
        var ownTexts: [Int] = []
        /// Text nodes `firstText..<endText` are those of its subtree.
        var firstText = 0
        var endText = 0
    }

    struct TextNode {
        var owner: Int
        var scalars: [Unicode.Scalar]
    }

    private(set) var elements: [Element] = []
    private(set) var texts: [TextNode] = []
    /// For each block, the element it was matched with.
    private(set) var blockElements: [Int?] = []

    /// How many characters (other than white space) of text a block and an element are compared by.
    static let keyLength = 32

    public init(data: Data, blocks: [TextBlock]) {
        let tree = XHTMLDocumentParser.documentTree(from: data)
        let body = tree.firstDescendant { $0.name.lowercased() == "body" } ?? tree
        add(body, parent: nil, step: "body")
        blockElements = matchBlocks(blocks)
    }

    private mutating func add(_ element: MarkupElement, parent: Int?, step: String) {
        let index = elements.count
        elements.append(Element(name: element.name.lowercased(), parent: parent, step: step))
        elements[index].firstText = texts.count
        var counts: [String: Int] = [:]
        for case .element(let child) in element.children { counts[child.name.lowercased(), default: 0] += 1 }
        var seen: [String: Int] = [:]
        for child in element.children {
            switch child {
            case .text(let text):
                guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else { continue }
                elements[index].ownTexts.append(texts.count)
                texts.append(TextNode(owner: index, scalars: Array(text.unicodeScalars)))
            case .element(let child):
                let name = child.name.lowercased()
                seen[name, default: 0] += 1
                add(child, parent: index, step: counts[name, default: 0] > 1 ? "\(name)[\(seen[name]!)]" : name)
            }
        }
        elements[index].end = elements.count
        elements[index].endText = texts.count
    }

    /// The first `keyLength` characters other than white space of an element's text.
    private func key(of element: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for text in texts[elements[element].firstText..<elements[element].endText] {
            for scalar in text.scalars where !scalar.properties.isWhitespace {
                scalars.append(scalar)
                if scalars.count == Self.keyLength { return String(scalars) }
            }
        }
        return String(scalars)
    }

    static func key(of text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.lazy.filter { !$0.properties.isWhitespace }.prefix(keyLength)))
    }

    /// Each block's element: the first element from where the last match left off whose text starts with the block's,
    /// then its innermost descendant that still does. Blocks out of document order (notes) are looked for from the top.
    private func matchBlocks(_ blocks: [TextBlock]) -> [Int?] {
        let keys = elements.indices.map(key(of:))
        var cursor = 0
        return blocks.map { block in
            let wanted = Self.key(of: block.plainText)
            guard !wanted.isEmpty else { return nil }
            let found = (cursor..<elements.count).first { keys[$0].hasPrefix(wanted) }
                ?? (0..<min(cursor, elements.count)).first { keys[$0].hasPrefix(wanted) }
            guard var element = found else { return nil }
            descending: while true {
                for child in (element + 1)..<elements[element].end where elements[child].parent == element && keys[child].hasPrefix(wanted) {
                    element = child
                    continue descending
                }
                break
            }
            if element >= cursor { cursor = element + 1 }
            return element
        }
    }

    /// The XPointer of a block and offset in this chapter, spine item `fragment` (see `KOReaderXPointer.write`).
    public func pointer(fragment: Int, blockIndex: Int, characterOffset: Int) -> String {
        let base = "/body/DocFragment[\(fragment)]"
        guard !blockElements.isEmpty else { return base + "/body" }
        var block = min(max(0, blockIndex), blockElements.count - 1)
        var offset = max(0, characterOffset)
        while block >= 0, blockElements[block] == nil {
            block -= 1
            offset = 0
        }
        guard block >= 0, let element = blockElements[block] else { return base + "/body" }
        return base + pointer(into: element, offset: offset)
    }

    /// The path from `body` to an element, as XPointer steps.
    private func path(to element: Int) -> String {
        var steps: [String] = []
        var current: Int? = element
        while let index = current, let parent = elements[index].parent {
            steps.append(elements[index].step)
            current = parent
        }
        return "/body" + steps.reversed().map { "/" + $0 }.joined()
    }

    /// The pointer to the character `offset` characters (other than white space) into an element's text.
    func pointer(into element: Int, offset: Int) -> String {
        let range = elements[element].firstText..<elements[element].endText
        guard !range.isEmpty else { return path(to: element) }
        var remaining = offset
        var place = (text: range.upperBound - 1, at: texts[range.upperBound - 1].scalars.count)
        search: for index in range {
            for (position, scalar) in texts[index].scalars.enumerated() where !scalar.properties.isWhitespace {
                if remaining == 0 {
                    place = (index, position)
                    break search
                }
                remaining -= 1
            }
        }
        let owner = texts[place.text].owner
        let siblings = elements[owner].ownTexts
        let number = (siblings.firstIndex(of: place.text) ?? 0) + 1
        return path(to: owner) + "/text()" + (siblings.count > 1 ? "[\(number)]" : "") + ".\(place.at)"
    }

    /// The block and offset of a parsed pointer, when its element path resolves (see `KOReaderXPointer.resolve`).
    public func resolve(_ pointer: KOReaderXPointer.Parsed) -> (blockIndex: Int, characterOffset: Int)? {
        guard !elements.isEmpty else { return nil }
        var element = 0
        for step in pointer.steps {
            let children = ((element + 1)..<elements[element].end).filter { elements[$0].parent == element && elements[$0].name == step.name }
            guard children.indices.contains(step.index - 1) else { return nil }
            element = children[step.index - 1]
        }
        // The block made from this element or one around it; else the first made from inside it.
        let inside = { (outer: Int, inner: Int) in inner >= outer && inner < elements[outer].end }
        if let block = blockElements.firstIndex(where: { $0.map { inside($0, element) } ?? false }), let blockElement = blockElements[block] {
            return (block, characters(in: blockElement, before: pointer, at: element))
        }
        if let block = blockElements.firstIndex(where: { $0.map { inside(element, $0) } ?? false }) {
            return (block, 0)
        }
        return nil
    }

    /// Characters other than white space in `outer`'s text before the pointer's place in `element` (inside it).
    private func characters(in outer: Int, before pointer: KOReaderXPointer.Parsed, at element: Int) -> Int {
        let own = elements[element].ownTexts
        let target: Int
        var within = 0
        if let number = pointer.textNode, own.indices.contains(number - 1) {
            target = own[number - 1]
            within = min(pointer.offset ?? 0, texts[target].scalars.count)
        } else {
            target = elements[element].firstText
        }
        var count = 0
        for index in elements[outer].firstText..<min(target, elements[outer].endText) {
            count += texts[index].scalars.count { !$0.properties.isWhitespace }
        }
        if target < texts.count, target < elements[outer].endText {
            count += texts[target].scalars.prefix(within).count { !$0.properties.isWhitespace }
        }
        return count
    }
}

import Foundation

/// Strict, namespace-aware XML parsing into a `MarkupElement` tree, over `XMLEventReader` (libxml2's SAX2 parser).
///
/// The returned root is a synthetic `#document` element whose children are the top-level nodes.
/// Element names are local names (prefix removed); attribute keys are kept as written (`epub:type`).
enum XMLTreeParser {
    typealias Failure = XMLEventReader.Failure

    /// Parses a file, read a piece at a time.
    static func parse(contentsOf url: URL) -> Result<MarkupElement, Failure> {
        let builder = TreeBuilder()
        if let failure = XMLEventReader.read(contentsOf: url, to: builder) { return .failure(failure) }
        return .success(builder.finish())
    }

    /// Parses in-memory data.
    static func parse(data: Data) -> Result<MarkupElement, Failure> {
        let builder = TreeBuilder()
        if let failure = XMLEventReader.read(data, to: builder) { return .failure(failure) }
        return .success(builder.finish())
    }

    /// Collects the reader's events into a tree. Nesting deeper than `maxDepth` is flattened.
    private final class TreeBuilder: XMLEventHandler {
        static let maxDepth = 400
        var stack: [MarkupElement] = [MarkupElement(name: "#document")]
        var ignoredDepth = 0
        var pendingText = ""

        func startElement(localName: String, prefix: String?, attributes: [String: String]) {
            flushText()
            if stack.count > Self.maxDepth {
                ignoredDepth += 1
                return
            }
            stack.append(MarkupElement(name: localName, attributes: attributes))
        }

        func endElement(localName: String, prefix: String?) {
            flushText()
            if ignoredDepth > 0 {
                ignoredDepth -= 1
                return
            }
            guard stack.count > 1 else { return }
            let element = stack.removeLast()
            stack[stack.count - 1].children.append(.element(element))
        }

        func characters(_ text: String) {
            pendingText += text
        }

        /// Text arrives in pieces; it is attached to the current element once the next tag shows up.
        private func flushText() {
            guard !pendingText.isEmpty else { return }
            stack[stack.count - 1].children.append(.text(pendingText))
            pendingText = ""
        }

        func finish() -> MarkupElement {
            flushText()
            while stack.count > 1 {
                let element = stack.removeLast()
                stack[stack.count - 1].children.append(.element(element))
            }
            return stack[0]
        }
    }
}

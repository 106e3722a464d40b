import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Strict, namespace-aware XML parsing into a `MarkupElement` tree using Foundation's XMLParser.
///
/// The returned root is a synthetic `#document` element whose children are the top-level nodes.
/// Element names are local names (prefix removed); attribute keys are kept as reported.
enum XMLTreeParser {
    /// Why a document could not be parsed.
    struct Failure: Error {
        let line: Int
        let reason: String
    }

    /// Parses a file. Uses `XMLParser(contentsOf:)`, which on Linux copes with files over 10 MB.
    static func parse(contentsOf url: URL) -> Result<MarkupElement, Failure> {
        guard let parser = XMLParser(contentsOf: url) else {
            return .failure(Failure(line: 0, reason: "could not be read"))
        }
        return run(parser)
    }

    /// Parses in-memory data. Large inputs go through a temporary file (XMLParser(data:) on Linux
    /// refuses inputs over 10 MB).
    static func parse(data: Data) -> Result<MarkupElement, Failure> {
        if data.count > 8 * 1024 * 1024 {
            let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-xml-\(UUID().uuidString).xml")
            do {
                try data.write(to: temporary)
            } catch {
                return .failure(Failure(line: 0, reason: "could not be buffered: \(error.localizedDescription)"))
            }
            defer { try? FileManager.default.removeItem(at: temporary) }
            return parse(contentsOf: temporary)
        }
        return run(XMLParser(data: data))
    }

    private static func run(_ parser: XMLParser) -> Result<MarkupElement, Failure> {
        let builder = TreeBuilder()
        parser.delegate = builder
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        let succeeded = parser.parse()
        withExtendedLifetime(builder) {}
        guard succeeded, builder.failure == nil else {
            let reason = builder.failure ?? parser.parserError.map { describe($0) } ?? "is not well-formed"
            return .failure(Failure(line: parser.lineNumber, reason: reason))
        }
        return .success(builder.finish())
    }

    private static func describe(_ error: Error) -> String {
        let nsError = error as NSError
        if let reason = nsError.userInfo[NSLocalizedDescriptionKey] as? String, !reason.contains("NSXMLParserErrorDomain") {
            return reason
        }
        return "XML error \(nsError.code)"
    }

    /// Collects SAX events into a tree. Nesting deeper than `maxDepth` is flattened.
    private final class TreeBuilder: NSObject, XMLParserDelegate {
        static let maxDepth = 400
        var stack: [MarkupElement] = [MarkupElement(name: "#document")]
        var ignoredDepth = 0
        var failure: String?
        var pendingText = ""

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            flushText()
            if stack.count > Self.maxDepth {
                ignoredDepth += 1
                return
            }
            let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
            stack.append(MarkupElement(name: local, attributes: attributeDict))
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            flushText()
            if ignoredDepth > 0 {
                ignoredDepth -= 1
                return
            }
            guard stack.count > 1 else { return }
            let element = stack.removeLast()
            stack[stack.count - 1].children.append(.element(element))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            appendText(string)
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            appendText(String(decoding: CDATABlock, as: UTF8.self))
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if failure == nil { failure = XMLTreeParser.describe(parseError) }
        }

        private func appendText(_ string: String) {
            pendingText += string
        }

        /// Text arrives in chunks; it is attached to the current element once the next tag shows up.
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

import CLibXML2
import Foundation

/// Reads a web page with libxml2's HTML parser into a `PageNode` tree, within `ArticleLimits`.
///
/// The tree is built straight from the parser's SAX events (libxml2's own tree is never made, then
/// copied and freed): the same elements, attributes and text its tree would hold, since libxml2
/// builds that tree from these same events. Elements deeper than `maxDepth` are flattened (their
/// text goes to the element at that depth); past `maxNodes` nodes (counted as in libxml2's tree:
/// elements, text, comments) the rest of the page is left out. Comments and processing
/// instructions are skipped. Escape sequences are taken out of the bytes first (as
/// `HTMLTreeParser.withDocument` does); text is sanitised later, when blocks are set.
enum PageTreeBuilder {
    /// libxml2 must be initialised once before parsing from several threads.
    private static let initialised: Void = { newsstand_xmlInitParser() }()

    static func build(data: Data, encoding: String?, limits: ArticleLimits) -> PageNode {
        _ = initialised
        let root = PageNode(name: "#document")
        var data = data
        if HTMLTreeParser.mayHoldEscapeSequences(data), let text = String(data: data, encoding: .utf8) {
            data = Data(TextSanitizer.removingEscapeSequences(text).utf8)
        }
        guard !data.isEmpty, data.count <= Int(Int32.max) else { return root }
        let builder = SAXTreeBuilder(root: root, limits: limits)
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self),
                  let context = newsstand_xmlCreateMemoryParserCtxt(base, Int32(buffer.count)) else { return }
            defer { newsstand_xmlFreeParserCtxt(context) }
            // What htmlReadMemory does (its context, HTML's handlers, options, a charset from HTTP),
            // with this builder's handlers in place of the ones that build libxml2's tree.
            var html = xmlSAXHandler()
            newsstand_xmlSAX2InitHtmlDefaultSAXHandler(&html)
            if let handler = context.pointee.sax {
                withUnsafeBytes(of: &html) { bytes in
                    UnsafeMutableRawPointer(handler).copyMemory(from: bytes.baseAddress!, byteCount: MemoryLayout<xmlSAXHandlerV1>.size)
                }
            }
            builder.install(on: context)
            context.pointee._private = Unmanaged.passUnretained(builder).toOpaque()
            let options = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
                                | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue | XML_PARSE_HUGE.rawValue)
            _ = newsstand_htmlCtxtUseOptions(context, options)
            context.pointee.html = 1
            if let encoding, let handler = newsstand_xmlFindCharEncodingHandler(encoding) {
                _ = newsstand_xmlSwitchToEncoding(context, handler)
                // The given charset is kept (a <meta charset> later does not switch it); a new context has none yet.
                if let input = context.pointee.input, input.pointee.encoding == nil {
                    input.pointee.encoding = UnsafePointer(newsstand_xmlStrdup(encoding))
                }
            }
            _ = newsstand_htmlParseDocument(context)
            // Only the document node and its type are left: elements and text went to the builder.
            if let document = context.pointee.myDoc {
                context.pointee.myDoc = nil
                newsstand_xmlFreeDoc(document)
            }
            builder.finish()
        }
        return root
    }
}

/// Turns the HTML parser's SAX events into `PageNode`s (see `PageTreeBuilder`).
private final class SAXTreeBuilder {
    let root: PageNode
    let limits: ArticleLimits
    /// The open elements that are kept (those at depth `maxDepth` or less); `root` at the bottom.
    var open: [PageNode]
    /// The parser's element depth, counting flattened elements.
    var depth = 0
    /// Nodes so far, as a walk over libxml2's tree counts them (its document type node first).
    var count = 1
    var stopped = false
    /// Text not yet added to the innermost kept element (runs of text events join into one node).
    var pendingText: [UInt8] = []
    /// What libxml2's tree would have as the current element's last child: 1 text, 2 CDATA, else 0.
    var lastChildKind = 0
    /// Names already read, by their address in the parser's dictionary (which keeps one copy of each
    /// name for the whole parse; a name from elsewhere is read each time).
    var elementNames: [UnsafePointer<xmlChar>: String] = [:]
    var attributeNames: [UnsafePointer<xmlChar>: String] = [:]
    var dictionary: xmlDictPtr?

    /// HTML's boolean attributes, to which libxml2's tree gives their own name as value when they have none.
    static let booleanAttributes: Set<String> = ["checked", "compact", "declare", "defer", "disabled", "ismap", "multiple",
                                                 "nohref", "noresize", "noshade", "nowrap", "readonly", "selected"]

    init(root: PageNode, limits: ArticleLimits) {
        self.root = root
        self.limits = limits
        open = [root]
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> SAXTreeBuilder? {
        guard let context, let builder = context.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private else { return nil }
        return Unmanaged<SAXTreeBuilder>.fromOpaque(builder).takeUnretainedValue()
    }

    /// Replaces the tree-building handlers of the context's SAX handler with this builder's; the
    /// document and DTD handlers stay libxml2's (the parser reads its document type from them).
    func install(on context: htmlParserCtxtPtr) {
        guard let handler = context.pointee.sax else { return }
        handler.pointee.startElement = { context, name, attributes in
            guard let name, let builder = SAXTreeBuilder.from(context) else { return }
            builder.startElement(name, attributes, context: context)
        }
        handler.pointee.endElement = { context, _ in
            SAXTreeBuilder.from(context)?.endElement()
        }
        handler.pointee.characters = { context, bytes, length in
            guard let bytes, let builder = SAXTreeBuilder.from(context) else { return }
            builder.text(bytes, Int(length), kind: 1, context: context)
        }
        handler.pointee.cdataBlock = { context, bytes, length in
            guard let bytes, let builder = SAXTreeBuilder.from(context) else { return }
            builder.text(bytes, Int(length), kind: 2, context: context)
        }
        handler.pointee.comment = { context, _ in
            SAXTreeBuilder.from(context)?.otherNode(context: context)
        }
        handler.pointee.processingInstruction = { context, _, _ in
            SAXTreeBuilder.from(context)?.otherNode(context: context)
        }
        handler.pointee.startElementNs = nil
        handler.pointee.endElementNs = nil
        handler.pointee.reference = nil
        handler.pointee.warning = nil
        handler.pointee.error = nil
        handler.pointee.fatalError = nil
        handler.pointee.serror = nil
    }

    /// Counts a node; past the limit the rest of the page is left out (and the parser stopped).
    private func counted(context: UnsafeMutableRawPointer?) -> Bool {
        count += 1
        guard count > limits.maxNodes else { return true }
        flushText()
        stopped = true
        if let context { newsstand_xmlStopParser(context.assumingMemoryBound(to: xmlParserCtxt.self)) }
        return false
    }

    func startElement(_ name: UnsafePointer<xmlChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
                      context: UnsafeMutableRawPointer?) {
        guard !stopped else { return }
        if dictionary == nil, let context { dictionary = context.assumingMemoryBound(to: xmlParserCtxt.self).pointee.dict }
        depth += 1
        if depth > limits.maxDepth {
            // Flattened: the element at depth maxDepth+1 counts as one node, its text joins the pending text.
            if depth == limits.maxDepth + 1, counted(context: context) { lastChildKind = 0 }
            return
        }
        guard counted(context: context) else { return }
        flushText()
        let element = PageNode(name: elementName(name), attributes: readAttributes(attributes))
        open[open.count - 1].append(element)
        open.append(element)
        lastChildKind = 0
    }

    func endElement() {
        guard !stopped else { return }
        if depth <= limits.maxDepth, open.count > 1 {
            flushText()
            open.removeLast()
            lastChildKind = 0
        } else if depth == limits.maxDepth + 1 {
            lastChildKind = 0
        }
        depth -= 1
    }

    func text(_ bytes: UnsafePointer<xmlChar>, _ length: Int, kind: Int, context: UnsafeMutableRawPointer?) {
        guard !stopped, length > 0 else { return }
        if depth > limits.maxDepth {
            pendingText.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
            return
        }
        // libxml2 drops text outside any element.
        guard depth > 0 else { return }
        if lastChildKind != kind {
            guard counted(context: context) else { return }
            lastChildKind = kind
        }
        pendingText.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
    }

    /// A comment or processing instruction: not kept, but a node of libxml2's tree (for the count).
    func otherNode(context: UnsafeMutableRawPointer?) {
        guard !stopped, depth <= limits.maxDepth else { return }
        guard counted(context: context) else { return }
        lastChildKind = 0
    }

    func finish() {
        flushText()
    }

    /// Adds the pending text to the innermost kept element, joined to a text node that ends it.
    private func flushText() {
        guard !pendingText.isEmpty else { return }
        let text = String(decoding: pendingText, as: UTF8.self)
        pendingText.removeAll(keepingCapacity: true)
        let parent = open[open.count - 1]
        if let last = parent.lastChild, last.isText {
            last.text += text
        } else {
            parent.append(PageNode(text: text))
        }
    }

    private func isInDictionary(_ name: UnsafePointer<xmlChar>) -> Bool {
        guard let dictionary else { return false }
        return newsstand_xmlDictOwns(dictionary, name) == 1
    }

    /// The element's lowercased local name (as `HTMLTreeParser.elementName`), read once per name:
    /// the parser keeps one copy of each name in its dictionary.
    private func elementName(_ raw: UnsafePointer<xmlChar>) -> String {
        if let known = elementNames[raw] { return known }
        let full = String(cString: raw).lowercased()
        let name = full.split(separator: ":").last.map(String.init) ?? full
        if isInDictionary(raw) { elementNames[raw] = name }
        return name
    }

    /// Attributes as `HTMLTreeParser.attributes(of:)` reads them from libxml2's tree: lowercased
    /// names, the first of a repeated name kept, a value-less attribute empty unless libxml2 gives
    /// HTML's boolean attributes their own name as value.
    private func readAttributes(_ list: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) -> [String: String] {
        guard let list else { return [:] }
        var result: [String: String] = [:]
        var index = 0
        while let rawName = list[index] {
            let rawValue = list[index + 1]
            index += 2
            let name: String
            if let known = attributeNames[rawName] {
                name = known
            } else {
                name = String(cString: rawName).lowercased()
                if isInDictionary(rawName) { attributeNames[rawName] = name }
            }
            guard result[name] == nil else { continue }
            if let rawValue {
                result[name] = String(cString: rawValue)
            } else if Self.booleanAttributes.contains(name) {
                result[name] = String(cString: rawName)
            } else {
                result[name] = ""
            }
        }
        return result
    }
}

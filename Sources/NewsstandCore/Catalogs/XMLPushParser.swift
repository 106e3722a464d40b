import CLibXML2
import Foundation
import NewsstandContent

/// What `XMLPushParser` reports, in document order, a piece of the document at a time: subclasses override what
/// they read. The pointers handed over are valid only during the call. Character data (text, CDATA, expanded
/// entities) in a row comes as one piece, unless it is larger than the parser's log.
///
/// A class rather than a protocol: the parser calls it through an unmanaged reference, with no
/// retain and release around each of the hundreds of thousands of calls a large feed makes (a
/// protocol existential was retained for every call).
class XMLPushParserDelegate {
    func startElement(_ tag: XMLStartTag) {}
    func endElement(localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>?) {}
    func characters(_ bytes: UnsafeBufferPointer<UInt8>) {}
    /// After each run of events (a piece of the document, or as many as the parser's log held): what the delegate
    /// put aside while reading them it may finish now.
    func didDeliverEvents() {}
    /// The events after the one being handed over, while they come from the parser's log (empty when an event too
    /// large for the log is handed over on its own): a delegate may read ahead with `peek` and take what it read
    /// with `skip`. What it reads there stays valid until its `didDeliverEvents` returns: the log is filled again
    /// only after. Set by the parser.
    final var upcoming: XMLEventLog?
}

/// A start tag as libxml2 reports it: the local name, namespace and attributes as UTF-8 bytes.
/// Names come from the parser's dictionary, so the same name in the same parse is the same pointer.
struct XMLStartTag {
    let localName: UnsafePointer<UInt8>
    let namespaceURI: UnsafePointer<UInt8>?
    /// Five pointers an attribute: local name, prefix, URI, value start, value end.
    fileprivate let attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    fileprivate let attributeCount: Int
    /// Where each `CommonAttribute` is: four bits a case, its position among the attributes plus
    /// one (0: absent). Only the first 15 attributes are indexed; a tag with more is searched.
    private let commonPositions: UInt64
    /// Whether an attribute among the first 15 is named `base` (with any prefix): `xmlBase` looks further
    /// only then, or when there are more (nearly no element has one, and every element asks).
    private let mayHaveBase: Bool

    /// The unprefixed attributes feeds put on nearly every element, indexed once as the tag is
    /// made: reading one is a shift, not a comparison of every attribute's name.
    enum CommonAttribute: Int {
        case href, rel, type, length, title, url, medium, fileSize, src, size, mode, isPermaLink
    }

    init(localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>?,
         attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, attributeCount: Int) {
        self.localName = localName
        self.namespaceURI = namespaceURI
        self.attributes = attributes
        self.attributeCount = attributeCount
        var positions: UInt64 = 0
        var hasBase = attributeCount > 15
        if let attributes {
            for index in 0..<min(attributeCount, 15) {
                let base = index * 5
                guard let name = attributes[base] else { continue }
                if name[0] == UInt8(ascii: "b"), XMLBytes.equal(name, "base") { hasBase = true }
                guard attributes[base + 1].map({ $0[0] == 0 }) ?? true, let common = Self.common(name) else { continue }
                let shift = UInt64(4 * common.rawValue)
                // The last of two alike wins, as in `attributeBytes`.
                positions = positions & ~(0xF << shift) | UInt64(index + 1) << shift
            }
        }
        commonPositions = positions
        mayHaveBase = hasBase
    }

    /// Which `CommonAttribute` the NUL-terminated `name` spells, if any.
    private static func common(_ name: UnsafePointer<UInt8>) -> CommonAttribute? {
        switch name[0] {
        case UInt8(ascii: "h"): return XMLBytes.equal(name, "href") ? .href : nil
        case UInt8(ascii: "r"): return XMLBytes.equal(name, "rel") ? .rel : nil
        case UInt8(ascii: "t"): return XMLBytes.equal(name, "type") ? .type : XMLBytes.equal(name, "title") ? .title : nil
        case UInt8(ascii: "l"): return XMLBytes.equal(name, "length") ? .length : nil
        case UInt8(ascii: "u"): return XMLBytes.equal(name, "url") ? .url : nil
        case UInt8(ascii: "m"): return XMLBytes.equal(name, "medium") ? .medium : XMLBytes.equal(name, "mode") ? .mode : nil
        case UInt8(ascii: "f"): return XMLBytes.equal(name, "fileSize") ? .fileSize : nil
        case UInt8(ascii: "s"): return XMLBytes.equal(name, "src") ? .src : XMLBytes.equal(name, "size") ? .size : nil
        case UInt8(ascii: "i"): return XMLBytes.equal(name, "isPermaLink") ? .isPermaLink : nil
        default: return nil
        }
    }

    /// The value of the unprefixed attribute `common`.
    func attribute(_ common: CommonAttribute) -> String? {
        attributeBytes(common).map(XMLBytes.attributeValue)
    }

    /// `attribute(common)`'s value as libxml2 gives it, valid during the callback.
    func attributeBytes(_ common: CommonAttribute) -> UnsafeBufferPointer<UInt8>? {
        let position = Int(commonPositions >> UInt64(4 * common.rawValue) & 0xF)
        guard position > 0, let attributes else {
            // Past the indexed ones: searched by name.
            return attributeCount > 15 ? attributeBytes(Self.names[common.rawValue]) : nil
        }
        let base = (position - 1) * 5
        guard let start = attributes[base + 3], let end = attributes[base + 4] else { return nil }
        return UnsafeBufferPointer(start: start, count: end - start)
    }

    private static let names: [StaticString] = ["href", "rel", "type", "length", "title", "url", "medium", "fileSize", "src", "size", "mode", "isPermaLink"]

    /// The value of the attribute written `prefix:local` (or `local` when `prefix` is nil), as
    /// `XMLParser` keyed them: by the prefix the document uses, not by namespace.
    func attribute(_ local: StaticString, prefix: StaticString? = nil) -> String? {
        attributeBytes(local, prefix: prefix).map(XMLBytes.attributeValue)
    }

    /// `attribute`'s value as libxml2 gives it (an ampersand as `&#38;`), valid during the callback.
    func attributeBytes(_ local: StaticString, prefix: StaticString? = nil) -> UnsafeBufferPointer<UInt8>? {
        guard let attributes, attributeCount > 0 else { return nil }
        let first = local.utf8Start.pointee
        var found: UnsafeBufferPointer<UInt8>? = nil
        for index in 0..<attributeCount {
            let base = index * 5
            // The first byte rules out most names before a full comparison.
            guard let name = attributes[base], name.pointee == first, XMLBytes.equal(name, local) else { continue }
            let attributePrefix = attributes[base + 1]
            if let prefix {
                guard let attributePrefix, XMLBytes.equal(attributePrefix, prefix) else { continue }
            } else if let attributePrefix, attributePrefix[0] != 0 {
                continue
            }
            guard let start = attributes[base + 3], let end = attributes[base + 4] else { continue }
            found = UnsafeBufferPointer(start: start, count: end - start)
        }
        return found
    }

    /// The value of the attribute `local` in the namespace `namespaceURI`, whatever prefix the document gives it.
    func attribute(_ local: StaticString, namespace namespaceURI: StaticString) -> String? {
        guard let attributes else { return nil }
        for index in 0..<attributeCount {
            let base = index * 5
            guard let name = attributes[base], XMLBytes.equal(name, local), let uri = attributes[base + 2], XMLBytes.equal(uri, namespaceURI),
                  let start = attributes[base + 3], let end = attributes[base + 4] else { continue }
            return XMLBytes.attributeValue(UnsafeBufferPointer(start: start, count: end - start))
        }
        return nil
    }

    /// `attribute("base", prefix: "xml") ?? attribute("base")`, in one pass over the attributes.
    var xmlBase: String? {
        guard mayHaveBase, let attributes, attributeCount > 0 else { return nil }
        var prefixed: UnsafeBufferPointer<UInt8>? = nil, bare: UnsafeBufferPointer<UInt8>? = nil
        for index in 0..<attributeCount {
            let base = index * 5
            guard let name = attributes[base], XMLBytes.equal(name, "base"),
                  let start = attributes[base + 3], let end = attributes[base + 4] else { continue }
            let value = UnsafeBufferPointer(start: start, count: end - start)
            if let attributePrefix = attributes[base + 1], attributePrefix[0] != 0 {
                if XMLBytes.equal(attributePrefix, "xml") { prefixed = value }
            } else {
                bare = value
            }
        }
        return (prefixed ?? bare).map(XMLBytes.attributeValue)
    }
}

/// Byte helpers for NUL-terminated UTF-8 from libxml2.
enum XMLBytes {
    /// Whether the NUL-terminated `bytes` spell `text` exactly.
    @inline(__always)
    static func equal(_ bytes: UnsafePointer<UInt8>, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        let expected = text.utf8Start
        for index in 0..<count where bytes[index] != expected[index] { return false }
        return bytes[count] == 0
    }

    /// Whether `bytes` hold an `&` (libc's `memchr`, word at a time).
    @inline(__always)
    static func hasAmpersand(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        return memchr(base, Int32(UInt8(ascii: "&")), bytes.count) != nil
    }

    static func string(_ bytes: UnsafePointer<UInt8>) -> String {
        String(cString: bytes)
    }

    /// An attribute value as text. Without entity substitution libxml2 hands over an ampersand as
    /// `&#38;` (and a reference to an entity the document declares as `&name;`), so that the value
    /// stays unambiguous; the ampersands are put back here.
    static func attributeValue(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard hasAmpersand(bytes) else { return String(decoding: bytes, as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        let reference: [UInt8] = Array("&#38;".utf8)
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&"), index + reference.count <= bytes.count,
               (0..<reference.count).allSatisfy({ bytes[index + $0] == reference[$0] }) {
                output.append(UInt8(ascii: "&"))
                index += reference.count
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// Namespace-aware streaming XML over libxml2's SAX2 push parser: bytes go in with `feed(_:)` in
/// pieces of any size, as they arrive, and `finish()` ends the document; events go to the delegate
/// once libxml2 has read the piece they are in (kept meanwhile in an `XMLEventLog`), or earlier
/// when the log is full. Memory stays flat whatever the document's size: libxml2 keeps only
/// unparsed input (at most one piece of `maxPushBytes` beyond what it needs for the current
/// construct), the log has a fixed size, and nothing here keeps text beyond it.
///
/// Safety: no network (`XML_PARSE_NONET`), no DTD loading, no external entity ever loaded (neither
/// general nor parameter: without `XML_PARSE_NOENT`, `DTDLOAD` or validation libxml2 skips them),
/// libxml2's default limits on depth, name and value sizes (no `XML_PARSE_HUGE`), and entity
/// expansion bounded twice: libxml2's own loop and amplification checks, and here a budget on
/// entity references and on expanded text relative to the bytes fed, past which parsing stops.
///
/// Errors: like Foundation's `XMLParser`, libxml2 recovers where it can (`XML_PARSE_RECOVER`: a
/// stray byte that is not UTF-8, an undefined entity, a mismatched tag), so a feed with a flaw
/// still gives what it holds; `failure` then names the first fatal error and its line. Recovery
/// reads to the end whatever the pieces, so the result does not depend on how input was cut.
///
/// One parser per document and thread; any number may run at once on different threads
/// (`xmlInitParser` runs once for the process).
final class XMLPushParser {
    /// Bytes handed to libxml2 at once; `feed` cuts larger pieces.
    static let maxPushBytes = 64 << 10

    /// Why parsing stopped early, in plain words, with the line it stopped on.
    struct Failure: Equatable {
        var line: Int
        var reason: String
    }

    /// Not retained (the delegate owns the parser) and not weak (a weak load on every callback costs):
    /// the delegate must outlive the parser, as `XMLFeedReader` does.
    private let delegate: Unmanaged<XMLPushParserDelegate>
    private var context: xmlParserCtxtPtr?
    /// The first bytes, held until `XMLEncodingSniffer` can tell who decodes the document.
    private var head: [UInt8] = []
    /// Set when iconv turns the document into UTF-8 ahead of libxml2 (an encoding libxml2 cannot read);
    /// nil on the fast path, where libxml2 reads the bytes as they come.
    private var transcoder: TextTranscoder?
    /// The encoding the document declares when neither libxml2 nor iconv knows it (nothing is read).
    private(set) var unknownEncoding: String?
    private var finished = false
    @exclusivity(unchecked) private var stoppedBy: String? {
        didSet { stopped = stoppedBy != nil }
    }
    /// `stoppedBy != nil`, read on every callback (a Bool, not a String to copy).
    @exclusivity(unchecked) private var stopped = false
    private var firstFatal: (line: Int, message: String, code: Int32)?
    // Touched on every callback, on one thread: no dynamic exclusivity checks (see XMLFeedReader).
    @exclusivity(unchecked) private(set) var bytesFed = 0
    @exclusivity(unchecked) private var entityReferences = 0
    @exclusivity(unchecked) private var textBytes = 0
    /// The most input libxml2 held unparsed at once (for tests: memory stays flat).
    @exclusivity(unchecked) private(set) var highWaterBufferedBytes = 0
    /// Events of the piece being parsed, handed to the delegate once it is parsed (see `XMLEventLog`).
    private let events = XMLEventLog()

    private static let initialised: Void = { newsstand_xmlInitParser() }()

    init(delegate: XMLPushParserDelegate) {
        _ = Self.initialised
        self.delegate = Unmanaged.passUnretained(delegate)
        delegate.upcoming = events
    }

    deinit {
        release()
    }

    /// False once parsing has stopped (libxml2 gave up, a limit was passed, or `finish`): further
    /// bytes are ignored.
    var isParsing: Bool {
        guard !finished, stoppedBy == nil else { return false }
        return context.map { $0.pointee.instate != XML_PARSER_EOF } ?? true
    }

    /// Why the document could not be read to its end, or nil while it can (or could).
    var failure: Failure? {
        if let stoppedBy { return Failure(line: currentLine, reason: stoppedBy) }
        if finished && bytesFed == 0 { return Failure(line: 1, reason: "the document is empty") }
        if let context, context.pointee.wellFormed == 0 {
            if let firstFatal { return Failure(line: firstFatal.line, reason: Self.plainReason(firstFatal.message, code: firstFatal.code)) }
            let error = context.pointee.lastError
            let message = error.message.map { String(cString: $0) } ?? "error \(error.code)"
            return Failure(line: Int(error.line), reason: Self.plainReason(message, code: Int32(error.code)))
        }
        return nil
    }

    /// The line libxml2 has read to.
    var currentLine: Int {
        guard let context else { return 1 }
        return Int(newsstand_xmlSAX2GetLineNumber(context))
    }

    /// Parses the next piece of the document. Returns false when parsing has stopped (the caller
    /// may stop reading).
    @discardableResult
    func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard isParsing else { return false }
        var remaining = UnsafeRawBufferPointer(rebasing: bytes[...])
        if context == nil {
            let taken = remaining.prefix(XMLEncodingSniffer.declarationWindow - head.count)
            head.append(contentsOf: taken)
            remaining = UnsafeRawBufferPointer(rebasing: remaining.dropFirst(taken.count))
            guard let decision = XMLEncodingSniffer.decide(head, complete: false) else { return true }
            start(decision)
            guard context != nil else { return false }
        }
        while !remaining.isEmpty && isParsing {
            let piece = UnsafeRawBufferPointer(rebasing: remaining.prefix(Self.maxPushBytes))
            remaining = UnsafeRawBufferPointer(rebasing: remaining.dropFirst(piece.count))
            if let transcoder {
                transcoder.convert(piece) { converted in if isParsing { push(converted, terminate: false) } }
            } else {
                push(piece, terminate: false)
            }
        }
        return isParsing
    }

    @discardableResult
    func feed(_ data: Data) -> Bool {
        data.withUnsafeBytes { feed($0) }
    }

    /// Ends the document: what libxml2 still holds is parsed, and an unfinished document is an error.
    func finish() {
        guard !finished else { return }
        if isParsing {
            if context == nil { start(XMLEncodingSniffer.decide(head, complete: true) ?? .libxml2) }
            if let transcoder, context != nil {
                transcoder.convert(UnsafeRawBufferPointer(start: nil, count: 0), final: true) { converted in
                    if isParsing { push(converted, terminate: false) }
                }
            }
            if context != nil, isParsing { push(UnsafeRawBufferPointer(start: nil, count: 0), terminate: true) }
        }
        finished = true
    }

    // MARK: libxml2

    /// Starts libxml2 on the held first bytes as `decision` says: as they are, or through iconv into UTF-8.
    private func start(_ decision: XMLEncodingSniffer.Decision) {
        if let unavailable = LibXML2Library.unavailable {
            stoppedBy = unavailable
            return
        }
        switch decision {
        case .libxml2:
            createContext(initial: head, ignoringDeclaredEncoding: false)
        case .transcode(let encoding, let skipping):
            guard let transcoder = TextTranscoders.make(from: encoding) else {
                stoppedBy = "its encoding \(encoding) could not be opened"
                return
            }
            self.transcoder = transcoder
            var converted: [UInt8] = []
            head.dropFirst(skipping).withUnsafeBytes { bytes in transcoder.convert(bytes) { converted.append(contentsOf: $0) } }
            // libxml2 reads UTF-8 and must not act on the declaration's name for the original bytes.
            createContext(initial: converted, ignoringDeclaredEncoding: true)
        case .unknown(let name):
            unknownEncoding = name
            stoppedBy = "it declares the encoding '\(name)', which neither libxml2 nor iconv knows"
        }
        head = []
    }

    private func createContext(initial: [UInt8], ignoringDeclaredEncoding: Bool) {
        var handler = xmlSAXHandler()
        newsstand_xmlSAXVersion(&handler, 2)
        // The document, DTD and entity declarations keep libxml2's own handlers (they record
        // entities for lookup); everything that would build a tree or load something does not.
        handler.startElementNs = { ctx, localName, _, uri, _, _, attributeCount, _, attributes in
            guard let localName else { return }
            XMLPushParser.with(ctx) { parser in
                guard !parser.stopped else { return }
                parser.startElement(localName, namespaceURI: uri, attributes: attributes, attributeCount: Int(attributeCount))
            }
        }
        handler.endElementNs = { ctx, localName, _, uri in
            guard let localName else { return }
            XMLPushParser.with(ctx) { parser in
                guard !parser.stopped else { return }
                parser.endElement(localName, namespaceURI: uri)
            }
        }
        handler.characters = { ctx, bytes, count in XMLPushParser.with(ctx) { $0.text(ctx, bytes, count) } }
        handler.ignorableWhitespace = handler.characters
        handler.cdataBlock = { ctx, bytes, count in XMLPushParser.with(ctx) { $0.text(ctx, bytes, count) } }
        handler.getEntity = { ctx, name in
            guard let parser = XMLPushParser.from(ctx) else { return nil }
            if parser.stoppedBy != nil {
                parser.stop(ctx, because: "")
                return nil
            }
            parser.entityReferences += 1
            if !StrictXML.allowsEntityReferences(parser.entityReferences, bytesRead: parser.bytesFed) {
                parser.stop(ctx, because: "its entities expand too far (more than \(parser.entityReferences - 1) entity references); it was not read further")
                return nil
            }
            // With entity substitution off and no validation, this only looks the name up: an
            // external entity is returned undeclared-content and never loaded.
            return newsstand_xmlSAX2GetEntity(ctx, name)
        }
        StrictXML.unsetUnwanted(&handler)
        handler.serror = { userData, error in
            guard let error, error.pointee.level == XML_ERR_FATAL, let parser = XMLPushParser.from(userData),
                  parser.firstFatal == nil else { return }
            let message = error.pointee.message.map { String(cString: $0) } ?? "error \(error.pointee.code)"
            parser.firstFatal = (Int(error.pointee.line), message, error.pointee.code)
        }

        let created: xmlParserCtxtPtr? = initial.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                newsstand_xmlCreatePushParserCtxt(&handler, nil, chars.baseAddress, Int32(chars.count), nil)
            }
        }
        guard let created else {
            stoppedBy = "libxml2 could not start a parser (out of memory?)"
            return
        }
        context = created
        created.pointee._private = Unmanaged.passUnretained(self).toOpaque()
        var options = XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
        if ignoringDeclaredEncoding { options |= XML_PARSE_IGNORE_ENC.rawValue }
        newsstand_xmlCtxtUseOptions(created, Int32(options))
        bytesFed += initial.count
        noteBuffered()
    }

    private func push(_ bytes: UnsafeRawBufferPointer, terminate: Bool) {
        guard let context else { return }
        bytesFed += bytes.count
        // libxml2 appends the piece to what it holds unparsed, then parses.
        noteBuffered(adding: bytes.count)
        let chars = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        newsstand_xmlParseChunk(context, chars, Int32(bytes.count), terminate ? 1 : 0)
        noteBuffered()
        deliverEvents()
    }

    // MARK: Events

    /// Keeps an event with `record`; when it does not fit, hands over those kept first and tries again. False when
    /// it is larger than the log: the caller hands it over on its own.
    @inline(__always)
    private func keep(_ record: () -> Bool) -> Bool {
        if record() { return true }
        deliverEvents()
        return record()
    }

    @inline(__always)
    private func startElement(_ localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>?,
                              attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, attributeCount: Int) {
        if keep({ events.recordStart(localName: localName, namespaceURI: namespaceURI, attributes: attributes, attributeCount: attributeCount) }) {
            return
        }
        let tag = XMLStartTag(localName: localName, namespaceURI: namespaceURI, attributes: attributes, attributeCount: attributeCount)
        delegate._withUnsafeGuaranteedRef { $0.startElement(tag) }
    }

    /// An end tag, which copies nothing, always fits an empty log.
    @inline(__always)
    private func endElement(_ localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>?) {
        _ = keep { events.recordEnd(localName: localName, namespaceURI: namespaceURI) }
    }

    /// Character data: counted against the entity expansion budget, then kept like a tag.
    @inline(__always)
    private func text(_ ctx: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<UInt8>?, _ count: Int32) {
        guard !stopped, let bytes, count > 0 else { return }
        textBytes += Int(count)
        if !StrictXML.allowsText(textBytes, bytesRead: bytesFed) {
            stop(ctx, because: "its entities expand to more than \(StrictXML.textAmplification) times its size; it was not read further")
            return
        }
        if keep({ events.recordText(bytes, count: Int(count)) }) { return }
        delegate._withUnsafeGuaranteedRef { $0.characters(UnsafeBufferPointer(start: bytes, count: Int(count))) }
    }

    /// Hands the kept events to the delegate in order, and empties the log.
    private func deliverEvents() {
        guard !events.isEmpty else { return }
        delegate._withUnsafeGuaranteedRef { delegate in
            while let event = events.next() {
                switch event {
                case let .start(localName, namespaceURI, attributes, attributeCount):
                    delegate.startElement(XMLStartTag(localName: localName, namespaceURI: namespaceURI, attributes: attributes,
                                                      attributeCount: attributeCount))
                case let .end(localName, namespaceURI):
                    delegate.endElement(localName: localName, namespaceURI: namespaceURI)
                case let .text(bytes):
                    delegate.characters(bytes)
                }
            }
            delegate.didDeliverEvents()
        }
    }

    /// Records libxml2's unparsed input (plus `adding` bytes about to be pushed) in the high-water mark.
    private func noteBuffered(adding: Int = 0) {
        guard let input = context?.pointee.input, let base = input.pointee.base, let end = input.pointee.end else { return }
        highWaterBufferedBytes = max(highWaterBufferedBytes, end - base + adding)
    }

    /// Stops libxml2 from the inside: the document's context, and the one that called (libxml2
    /// parses an entity's content with a context of its own). Marking them not well-formed keeps
    /// libxml2 from looking entities up again or expanding any further.
    private func stop(_ ctx: UnsafeMutableRawPointer?, because reason: String) {
        if stoppedBy == nil { stoppedBy = reason }
        for target in [ctx?.assumingMemoryBound(to: xmlParserCtxt.self), context] {
            guard let target else { continue }
            newsstand_xmlStopParser(target)
            target.pointee.wellFormed = 0
        }
    }

    private func release() {
        guard let context else { return }
        if let document = context.pointee.myDoc {
            context.pointee.myDoc = nil
            newsstand_xmlFreeDoc(document)
        }
        newsstand_xmlFreeParserCtxt(context)
        self.context = nil
    }

    /// The parser behind a libxml2 callback: the callback's context (the document's, or the one
    /// libxml2 makes for an entity's content) carries it in `_private`.
    private static func from(_ ctx: UnsafeMutableRawPointer?) -> XMLPushParser? {
        guard let ctx, let owner = ctx.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private else { return nil }
        return Unmanaged<XMLPushParser>.fromOpaque(owner).takeUnretainedValue()
    }

    /// `body` with the parser behind a callback, neither retained nor released: the callbacks run
    /// inside `xmlParseChunk`, which the parser itself calls (and so outlives).
    @inline(__always)
    private static func with(_ ctx: UnsafeMutableRawPointer?, _ body: (XMLPushParser) -> Void) {
        guard let ctx, let owner = ctx.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private else { return }
        Unmanaged<XMLPushParser>.fromOpaque(owner)._withUnsafeGuaranteedRef(body)
    }

    /// libxml2's message as a clause: one line, without its trailing newline, with the commonest
    /// codes said plainly.
    static func plainReason(_ message: String, code: Int32) -> String {
        let text = message.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        switch xmlParserErrors(UInt32(bitPattern: code)) {
        case XML_ERR_ENTITY_LOOP:
            return "its entities refer to each other in a loop or expand too far; it was not read further"
        case XML_ERR_DOCUMENT_EMPTY:
            return "the document is empty"
        default:
            if text.hasPrefix("Input is not proper UTF-8") {
                return "its bytes are not UTF-8 and it declares no other encoding" + (text.range(of: "Bytes:").map { " (" + text[$0.lowerBound...] + ")" } ?? "")
            }
            return text
        }
    }
}

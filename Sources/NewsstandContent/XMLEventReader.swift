import CLibXML2
import Foundation

/// What `XMLEventReader` reports, in document order. Each method has a default that ignores it.
public protocol XMLEventHandler: AnyObject {
    /// A start tag: its local name, its prefix (nil when it has none) and its attributes, keyed as the document
    /// writes them (`name`, or `prefix:name`), the last of two alike kept.
    func startElement(localName: String, prefix: String?, attributes: [String: String])
    func endElement(localName: String, prefix: String?)
    /// Character data (text, CDATA, an internal entity's text), in pieces of any size.
    func characters(_ text: String)
}

public extension XMLEventHandler {
    func startElement(localName: String, prefix: String?, attributes: [String: String]) {}
    func endElement(localName: String, prefix: String?) {}
    func characters(_ text: String) {}
}

/// Strict, namespace-aware XML read whole with libxml2's SAX2 parser, for the documents read at once rather than as
/// they arrive: EPUB's container, package and navigation documents and XHTML chapters, ComicInfo.xml, OPML and
/// OpenSearch descriptions (the feed reader streams with `XMLPushParser` instead).
///
/// Strict: any error or warning libxml2 reports fails the read, as with Foundation's `XMLParser` these documents
/// were read with before; the events before it have been delivered. No tree is built.
///
/// Safe as `XMLPushParser` is: no network (`XML_PARSE_NONET`), no DTD loading, no external entity ever loaded (without
/// `XML_PARSE_NOENT`, `DTDLOAD` or validation libxml2 skips them, and `resolveEntity` answers nothing), libxml2's
/// default limits on depth, names and text (no `XML_PARSE_HUGE`), and entity expansion bounded twice: by libxml2's
/// own loop and amplification checks, and here by a budget of entity references and of text relative to the bytes
/// read, past which reading stops with a failure.
public enum XMLEventReader {
    /// Why a document could not be read to its end, with the line it stopped on (0: before any line).
    public struct Failure: Error, Equatable, Sendable {
        public let line: Int
        public let reason: String
    }

    /// Bytes handed to libxml2 at once.
    static let pieceBytes = 64 << 10

    /// Reads `data`, reporting to `handler`; nil when the whole document was read.
    public static func read(_ data: Data, to handler: XMLEventHandler) -> Failure? {
        let session = Session(handler: handler)
        data.withUnsafeBytes { bytes in
            var offset = 0
            repeat {
                let piece = UnsafeRawBufferPointer(rebasing: bytes[offset..<min(offset + pieceBytes, bytes.count)])
                offset += piece.count
                guard session.push(piece, last: offset >= bytes.count) else { return }
            } while offset < bytes.count
        }
        return session.finish()
    }

    /// Reads the file at `url` a piece at a time, reporting to `handler`; nil when the whole document was read.
    public static func read(contentsOf url: URL, to handler: XMLEventHandler) -> Failure? {
        guard let file = fopen(url.path, "rb") else { return Failure(line: 0, reason: "it could not be read (\(String(cString: strerror(errno))))") }
        defer { fclose(file) }
        let session = Session(handler: handler)
        var buffer = [UInt8](repeating: 0, count: pieceBytes)
        while true {
            let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count < buffer.count && ferror(file) != 0 { return Failure(line: 0, reason: "it could not be read to its end") }
            let last = count < buffer.count
            let going = buffer.withUnsafeBytes { session.push(UnsafeRawBufferPointer(rebasing: $0[0..<count]), last: last) }
            if last || !going { break }
        }
        return session.finish()
    }

    /// One document's parse: the libxml2 context, the handler and the budgets.
    private final class Session {
        let handler: XMLEventHandler
        var context: xmlParserCtxtPtr?
        var failure: Failure?
        var stopped = false
        var bytesRead = 0
        var entityReferences = 0
        var textBytes = 0
        var finished = false

        init(handler: XMLEventHandler) {
            self.handler = handler
            if let unavailable = LibXML2Library.unavailable { failure = Failure(line: 0, reason: unavailable) }
        }

        deinit {
            guard let context else { return }
            if let document = context.pointee.myDoc {
                context.pointee.myDoc = nil
                newsstand_xmlFreeDoc(document)
            }
            newsstand_xmlFreeParserCtxt(context)
        }

        /// Parses the next piece (`last`: the document ends with it). False once reading has stopped.
        func push(_ bytes: UnsafeRawBufferPointer, last: Bool) -> Bool {
            guard failure == nil, !stopped, !finished else { return false }
            bytesRead += bytes.count
            let chars = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
            if context == nil {
                // The first piece goes in with the context: libxml2 reads the encoding from its first bytes.
                guard start(chars, Int32(bytes.count)) else { return false }
                if last { newsstand_xmlParseChunk(context, nil, 0, 1) }
            } else {
                newsstand_xmlParseChunk(context, chars, Int32(bytes.count), last ? 1 : 0)
            }
            if last { finished = true }
            return failure == nil && !stopped && (context?.pointee.wellFormed ?? 0) != 0
        }

        /// The failure, if any, once the pieces are in.
        func finish() -> Failure? {
            if let failure { return failure }
            guard let context else { return Failure(line: 1, reason: "the document is empty") }
            if !finished { newsstand_xmlParseChunk(context, nil, 0, 1) }
            if let failure { return failure }
            if context.pointee.wellFormed == 0 {
                let error = context.pointee.lastError
                return Failure(line: Int(error.line), reason: error.message.map { Self.clause(String(cString: $0)) } ?? "it is not well-formed (error \(error.code))")
            }
            return nil
        }

        private func start(_ chars: UnsafePointer<CChar>?, _ count: Int32) -> Bool {
            var sax = xmlSAXHandler()
            // libxml2's handlers for the document, DTD and entity declarations (they record entities to look up);
            // everything that would build a tree, load something or print is replaced or removed.
            guard newsstand_xmlSAXVersion(&sax, 2) == 0 else {
                failure = Failure(line: 0, reason: LibXML2Library.unavailable ?? "libxml2 could not start a parser")
                return false
            }
            sax.startElementNs = { ctx, localName, prefix, _, _, _, attributeCount, _, attributes in
                guard let localName, let session = Session.from(ctx), !session.stopped else { return }
                session.startElement(localName, prefix, attributes, Int(attributeCount))
            }
            sax.endElementNs = { ctx, localName, prefix, _ in
                guard let localName, let session = Session.from(ctx), !session.stopped else { return }
                session.handler.endElement(localName: String(cString: localName), prefix: prefix.map { String(cString: $0) })
            }
            sax.characters = { ctx, bytes, count in Session.from(ctx)?.text(ctx, bytes, count) }
            sax.ignorableWhitespace = sax.characters
            sax.cdataBlock = sax.characters
            sax.getEntity = { ctx, name in
                guard let session = Session.from(ctx) else { return nil }
                guard !session.stopped else { return nil }
                session.entityReferences += 1
                if !StrictXML.allowsEntityReferences(session.entityReferences, bytesRead: session.bytesRead) {
                    session.stop(ctx, because: "its entities expand too far (more than \(session.entityReferences - 1) entity references)")
                    return nil
                }
                // Without entity substitution or validation this only looks the name up: an external entity is
                // returned with no content and never loaded.
                return newsstand_xmlSAX2GetEntity(ctx, name)
            }
            StrictXML.unsetUnwanted(&sax)
            sax.serror = { userData, error in
                guard let error, let session = Session.from(userData), session.failure == nil else { return }
                let message = error.pointee.message.map { String(cString: $0) } ?? "error \(error.pointee.code)"
                session.failure = Failure(line: Int(error.pointee.line), reason: Session.clause(message))
            }
            guard let created = newsstand_xmlCreatePushParserCtxt(&sax, nil, chars, count, nil) else {
                failure = Failure(line: 0, reason: LibXML2Library.unavailable ?? "libxml2 could not start a parser (out of memory?)")
                return false
            }
            context = created
            created.pointee._private = Unmanaged.passUnretained(self).toOpaque()
            newsstand_xmlCtxtUseOptions(created, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue))
            return true
        }

        private func startElement(_ localName: UnsafePointer<xmlChar>, _ prefix: UnsafePointer<xmlChar>?,
                                  _ list: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, _ count: Int) {
            var attributes: [String: String] = [:]
            if let list {
                // Five pointers an attribute: local name, prefix, URI, value start, value end.
                for index in 0..<count {
                    let base = index * 5
                    guard let name = list[base], let start = list[base + 3], let end = list[base + 4] else { continue }
                    var key = String(cString: name)
                    if let attributePrefix = list[base + 1], attributePrefix[0] != 0 { key = String(cString: attributePrefix) + ":" + key }
                    attributes[key] = Self.attributeValue(UnsafeBufferPointer(start: start, count: end - start))
                }
            }
            handler.startElement(localName: String(cString: localName), prefix: prefix.map { String(cString: $0) }, attributes: attributes)
        }

        private func text(_ ctx: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<xmlChar>?, _ count: Int32) {
            guard !stopped, let bytes, count > 0 else { return }
            textBytes += Int(count)
            if !StrictXML.allowsText(textBytes, bytesRead: bytesRead) {
                stop(ctx, because: "its entities expand to more than \(StrictXML.textAmplification) times its size")
                return
            }
            handler.characters(String(decoding: UnsafeBufferPointer(start: bytes, count: Int(count)), as: UTF8.self))
        }

        /// Stops libxml2 from inside a callback: the document's context and the one that called (libxml2 parses
        /// an entity's content with a context of its own), marked not well-formed so nothing is expanded further.
        private func stop(_ ctx: UnsafeMutableRawPointer?, because reason: String) {
            if failure == nil { failure = Failure(line: context.map { Int(newsstand_xmlSAX2GetLineNumber($0)) } ?? 0, reason: reason) }
            stopped = true
            for target in [ctx?.assumingMemoryBound(to: xmlParserCtxt.self), context] {
                guard let target else { continue }
                newsstand_xmlStopParser(target)
                target.pointee.wellFormed = 0
            }
        }

        /// The session behind a callback: its context (the document's, or an entity's) carries it in `_private`.
        static func from(_ ctx: UnsafeMutableRawPointer?) -> Session? {
            guard let ctx, let owner = ctx.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private else { return nil }
            return Unmanaged<Session>.fromOpaque(owner).takeUnretainedValue()
        }

        /// libxml2's message as one line without its trailing newline.
        static func clause(_ message: String) -> String {
            message.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        }

        /// An attribute value as text. Without entity substitution libxml2 hands an ampersand over as `&#38;` (so
        /// that a reference to a declared entity, kept as `&name;`, stays unambiguous); it is put back here.
        static func attributeValue(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
            let value = String(decoding: bytes, as: UTF8.self)
            return value.contains("&#38;") ? value.replacingOccurrences(of: "&#38;", with: "&") : value
        }
    }
}

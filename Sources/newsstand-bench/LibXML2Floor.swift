import CLibXML2
import Foundation

/// libxml2 alone over a feed's bytes: the SAX2 push parser as `XMLPushParser` drives it (the same
/// options, 64 KB pieces), with callbacks that only count. No feed reader can be faster; timed in the
/// same run as the reader, it shows how fast this machine is at the moment (a shared VM's speed
/// varies by up to 2× from one minute to the next), so the reader's time over it stays comparable.
enum LibXML2Floor {
    /// What the callbacks count, in memory of its own: reached from the callbacks' context pointer without a retain
    /// and release of an object around each count, which would time Swift's reference counting, not libxml2.
    private struct Counts {
        var elements = 0
        var textBytes = 0
    }

    /// Parses `data` once; returns the elements seen (to check the parse read it all).
    static func parse(_ data: Data) -> Int {
        let counts = UnsafeMutablePointer<Counts>.allocate(capacity: 1)
        counts.initialize(to: Counts())
        defer { counts.deallocate() }
        var handler = xmlSAXHandler()
        xmlSAXVersion(&handler, 2)
        handler.startElementNs = { ctx, _, _, _, _, _, _, _, _ in
            ctx!.assumingMemoryBound(to: Counts.self).pointee.elements += 1
        }
        handler.endElementNs = { _, _, _, _ in }
        handler.characters = { ctx, _, count in ctx!.assumingMemoryBound(to: Counts.self).pointee.textBytes += Int(count) }
        handler.ignorableWhitespace = handler.characters
        handler.cdataBlock = handler.characters
        handler.startDocument = nil
        handler.endDocument = nil
        handler.comment = nil
        handler.warning = nil
        handler.error = nil
        handler.fatalError = nil
        handler.serror = nil
        let user = UnsafeMutableRawPointer(counts)
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: CChar.self)
            guard let base = bytes.baseAddress, bytes.count > 4,
                  let context = xmlCreatePushParserCtxt(&handler, user, base, 4, nil) else { return }
            let options = XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            xmlCtxtUseOptions(context, Int32(options))
            var offset = 4
            while offset < bytes.count {
                let count = min(64 << 10, bytes.count - offset)
                xmlParseChunk(context, base + offset, Int32(count), 0)
                offset += count
            }
            xmlParseChunk(context, nil, 0, 1)
            if let document = context.pointee.myDoc { xmlFreeDoc(document) }
            xmlFreeParserCtxt(context)
        }
        return counts.pointee.elements
    }
}

import CLibXML2

/// What the strict XML readers (`XMLEventReader`, and the feed reader's `XMLPushParser` in the core) allow a document
/// and leave unset in libxml2's SAX handler, written once: entity references and text bounded by the bytes read (a
/// billion laughs stops early), and no callback that would load, print or report anything of its own.
public enum StrictXML {
    /// Entity references allowed beyond one per four bytes read (a billion laughs makes millions).
    public static let entityReferenceAllowance = 10_000
    /// Text allowed beyond `textAmplification` times the bytes read (encodings can grow text 3×).
    public static let textAllowance = 1 << 20
    public static let textAmplification = 4

    /// Whether a document `bytesRead` long may have made `references` entity references.
    public static func allowsEntityReferences(_ references: Int, bytesRead: Int) -> Bool {
        references <= entityReferenceAllowance + bytesRead / 4
    }

    /// Whether a document `bytesRead` long may have given `textBytes` of text.
    public static func allowsText(_ textBytes: Int, bytesRead: Int) -> Bool {
        textBytes <= textAllowance + textAmplification * bytesRead
    }

    /// Unsets the callbacks a strict reader never wants: the external subset and external entities (resolved to
    /// nothing), references, comments, processing instructions, the SAX1 element callbacks and libxml2's own
    /// warning and error printers (errors come through `serror`, set by the reader).
    public static func unsetUnwanted(_ sax: inout xmlSAXHandler) {
        sax.externalSubset = nil
        sax.resolveEntity = { _, _, _ in nil }
        sax.reference = nil
        sax.comment = nil
        sax.processingInstruction = nil
        sax.startElement = nil
        sax.endElement = nil
        sax.warning = nil
        sax.error = nil
        sax.fatalError = nil
    }
}

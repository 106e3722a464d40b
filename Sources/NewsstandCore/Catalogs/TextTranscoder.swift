import Foundation

/// Turns a document's bytes into UTF-8 as they arrive, for libxml2 to read: glibc's iconv
/// (`IconvTranscoder`), or a table for the Mac code pages iconv lacks (`MacCodePageTranscoder`).
protocol TextTranscoder: AnyObject {
    /// Converts `bytes`, handing UTF-8 to `sink` in pieces of at most `IconvTranscoder.outputBytes`; with
    /// `final`, the document ends here.
    func convert(_ bytes: UnsafeRawBufferPointer, final: Bool, into sink: (UnsafeRawBufferPointer) -> Void)
}

extension TextTranscoder {
    func convert(_ bytes: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) -> Void) {
        convert(bytes, final: false, into: sink)
    }
}

/// The transcoders by the names `XMLEncodingSniffer` gives.
enum TextTranscoders {
    /// A transcoder from `encoding` (a Mac table's name, or a name iconv opens), or nil.
    static func make(from encoding: String) -> TextTranscoder? {
        MacCodePageTranscoder(name: encoding) ?? IconvTranscoder(from: encoding)
    }

    /// Whether `make(from:)` gives a transcoder for `encoding`.
    static func knows(_ encoding: String) -> Bool {
        MacCodePageTranscoder.tables[encoding.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " }] != nil
            || IconvTranscoder.canOpen(encoding)
    }
}

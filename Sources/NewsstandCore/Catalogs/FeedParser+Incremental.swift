import Foundation

extension FeedParser {
    /// A feed parsed as its bytes arrive (from the network, say): `feed(_:)` each piece, then
    /// `finish()`. The format is judged from the first 64 KB, as `parse(contentsOf:url:)` judges a
    /// file; XML feeds then stream through `XMLFeedReader`, so memory stays flat however long the
    /// feed. Property lists and OPDS 2 JSON are kept whole and read at the end (the caller bounds
    /// their size, as it bounds any download). The result is the same as `parse(_:url:)` on the
    /// whole body. One feed per instance, on one thread at a time.
    public final class Incremental {
        static let headBytes = 64 << 10

        private let url: URL
        private var head = Data()
        private var reader: XMLFeedReader?
        private var assembler: FeedAssembler?
        /// True once the format is judged or cannot be from a head alone: everything is kept.
        private var keepsEverything = false

        public init(url: URL) {
            self.url = url
        }

        /// Bytes held for detection or for a format read whole (not an XML feed's, which streams).
        public var heldBytes: Int { head.count }

        /// Reads the next piece. Returns false once an XML feed's reading has stopped (libxml2 gave
        /// up, or a limit was passed): the caller may stop the transfer.
        @discardableResult
        public func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
            if let reader { return reader.feed(bytes) }
            head.append(contentsOf: bytes)
            if !keepsEverything && head.count >= Self.headBytes { judge() }
            return true
        }

        @discardableResult
        public func feed(_ data: Data) -> Bool {
            data.withUnsafeBytes { feed($0) }
        }

        /// The feed, as `parse(_:url:)` would give it for all the bytes fed.
        public func finish() throws -> Feed {
            if let reader, let assembler { return try assembler.finish(reader.finish()) }
            return try FeedParser.parse(head, url: url)
        }

        /// Chooses from the head: an XML feed starts streaming; anything else is kept whole.
        private func judge() {
            keepsEverything = true
            guard let detected = FeedParser.detectFormat(head) else { return }
            switch detected {
            case .rss, .atom, .opds1, .newsstandAtom:
                let assembler = FeedAssembler(detected: detected)
                let reader = XMLFeedReader(feedURL: url, assembler: assembler)
                self.assembler = assembler
                self.reader = reader
                reader.feed(head)
                head = Data()
            case .propertyList, .opds2:
                break
            }
        }
    }
}

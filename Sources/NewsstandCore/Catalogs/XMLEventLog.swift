/// The events libxml2 reports while it parses a piece of a document, kept in order so that `XMLPushParser` hands
/// them to its delegate together once the piece is parsed (or the log is full).
///
/// Why: called element by element, a feed reader's code and libxml2's took turns in the processor's instruction
/// cache, each pushing the other out (a simulated cache missed 12 million times a parse of the feeds benchmark,
/// libxml2 alone 2 thousand). libxml2 now runs through a piece with callbacks that only copy, then the reader
/// runs through its events.
///
/// A start tag keeps its name and namespace pointers (libxml2's dictionary keeps them for the parser's life) and a
/// copy of each attribute's value; a piece of text keeps a copy of its bytes. The log has a fixed capacity: what
/// does not fit waits until the log is delivered, and an event larger than the whole log is delivered on its own.
/// One owner, one thread.
final class XMLEventLog {
    /// What `next` found.
    enum Event {
        /// A start tag: `attributes` holds five pointers an attribute (local name, prefix, URI, value start, value
        /// end), as libxml2 gives them; valid until the next call.
        case start(localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>?,
                   attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, attributeCount: Int)
        case end(localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>?)
        /// Character data, valid until the next call.
        case text(UnsafeBufferPointer<UInt8>)
    }

    private enum Kind: UInt64 {
        case start = 1, end, text
    }

    /// The most bytes the log holds (about one piece of `XMLPushParser.maxPushBytes`' events).
    static let capacityBytes = 96 << 10
    /// Records, eight bytes a word: a header word (kind in the low byte, then a count), pointers as words, and
    /// copied bytes padded to whole words.
    private let words: UnsafeMutablePointer<UInt64>
    private let capacity = XMLEventLog.capacityBytes / 8
    /// Words written.
    private var written = 0
    /// Words read by `next`.
    private var read = 0
    /// Where `next` puts a start tag's attribute pointers.
    private var attributeScratch: UnsafeMutablePointer<UnsafePointer<UInt8>?>
    private var attributeScratchCapacity = 40

    init() {
        words = .allocate(capacity: capacity)
        attributeScratch = .allocate(capacity: attributeScratchCapacity)
    }

    deinit {
        words.deallocate()
        attributeScratch.deallocate()
    }

    var isEmpty: Bool { written == 0 }

    /// Words that `byteCount` bytes take.
    @inline(__always)
    private static func wordsFor(bytes byteCount: Int) -> Int { (byteCount + 7) >> 3 }

    @inline(__always)
    private static func word(_ pointer: UnsafePointer<UInt8>?) -> UInt64 { UInt64(UInt(bitPattern: pointer)) }

    @inline(__always)
    private static func pointer(_ word: UInt64) -> UnsafePointer<UInt8>? { UnsafePointer(bitPattern: UInt(word)) }

    /// Keeps a start tag (libxml2's five pointers an attribute); false when it does not fit now.
    @inline(__always)
    func recordStart(localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>?,
                     attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, attributeCount: Int) -> Bool {
        var valueBytes = 0
        if let attributes {
            for index in 0..<attributeCount {
                if let start = attributes[index * 5 + 3], let end = attributes[index * 5 + 4] { valueBytes += end - start }
            }
        }
        let needed = 3 + 4 * attributeCount + Self.wordsFor(bytes: valueBytes)
        guard written + needed <= capacity else { return false }
        let record = words + written
        record[0] = Kind.start.rawValue | UInt64(attributeCount) << 8 | UInt64(needed) << 32
        record[1] = Self.word(localName)
        record[2] = Self.word(namespaceURI)
        if let attributes {
            let values = UnsafeMutableRawPointer(record + 3 + 4 * attributeCount).assumingMemoryBound(to: UInt8.self)
            var offset = 0
            for index in 0..<attributeCount {
                let slot = record + 3 + 4 * index
                slot[0] = Self.word(attributes[index * 5])
                slot[1] = Self.word(attributes[index * 5 + 1])
                slot[2] = Self.word(attributes[index * 5 + 2])
                var length = 0
                if let start = attributes[index * 5 + 3], let end = attributes[index * 5 + 4] {
                    length = end - start
                    if length > 0 { (values + offset).update(from: start, count: length) }
                }
                // A value without pointers (libxml2 always gives both) reads back as an empty one.
                slot[3] = UInt64(length)
                offset += length
            }
        }
        written += needed
        return true
    }

    /// Keeps an end tag; false when it does not fit now.
    @inline(__always)
    func recordEnd(localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>?) -> Bool {
        guard written + 3 <= capacity else { return false }
        let record = words + written
        record[0] = Kind.end.rawValue
        record[1] = Self.word(localName)
        record[2] = Self.word(namespaceURI)
        written += 3
        return true
    }

    /// Keeps a piece of character data; false when it does not fit now.
    @inline(__always)
    func recordText(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        let needed = 1 + Self.wordsFor(bytes: count)
        guard written + needed <= capacity else { return false }
        let record = words + written
        record[0] = Kind.text.rawValue | UInt64(count) << 8
        UnsafeMutableRawPointer(record + 1).copyMemory(from: bytes, byteCount: count)
        written += needed
        return true
    }

    /// The next event in the order they were kept, or nil (and the log empty again) when all were read.
    @inline(__always)
    func next() -> Event? {
        guard read < written else {
            read = 0
            written = 0
            return nil
        }
        let record = words + read
        let header = record[0]
        switch header & 0xFF {
        case Kind.start.rawValue:
            let attributeCount = Int(truncatingIfNeeded: header >> 8 & 0xFF_FFFF)
            read += Int(truncatingIfNeeded: header >> 32)
            guard attributeCount > 0 else {
                return .start(localName: Self.pointer(record[1])!, namespaceURI: Self.pointer(record[2]), attributes: nil, attributeCount: 0)
            }
            if attributeCount * 5 > attributeScratchCapacity { growScratch(to: attributeCount * 5) }
            var value = UnsafeRawPointer(record + 3 + 4 * attributeCount).assumingMemoryBound(to: UInt8.self)
            for index in 0..<attributeCount {
                let slot = record + 3 + 4 * index
                let target = attributeScratch + index * 5
                target[0] = Self.pointer(slot[0])
                target[1] = Self.pointer(slot[1])
                target[2] = Self.pointer(slot[2])
                let length = Int(truncatingIfNeeded: slot[3])
                target[3] = value
                target[4] = value + length
                value += length
            }
            return .start(localName: Self.pointer(record[1])!, namespaceURI: Self.pointer(record[2]),
                          attributes: attributeScratch, attributeCount: attributeCount)
        case Kind.end.rawValue:
            read += 3
            return .end(localName: Self.pointer(record[1])!, namespaceURI: Self.pointer(record[2]))
        default:
            let count = Int(truncatingIfNeeded: header >> 8)
            read += 1 + Self.wordsFor(bytes: count)
            return .text(UnsafeBufferPointer(start: UnsafeRawPointer(record + 1).assumingMemoryBound(to: UInt8.self), count: count))
        }
    }

    private func growScratch(to needed: Int) {
        attributeScratch.deallocate()
        attributeScratchCapacity = needed
        attributeScratch = .allocate(capacity: needed)
    }
}

/// The events libxml2 reports while it parses a piece of a document, kept in order so that `XMLPushParser` hands
/// them to its delegate together once the piece is parsed (or the log is full).
///
/// Why: called element by element, a feed reader's code and libxml2's took turns in the processor's instruction
/// cache, each pushing the other out (a simulated cache missed 12 million times a parse of the feeds benchmark,
/// libxml2 alone 2 thousand). libxml2 now runs through a piece with callbacks that only copy, then the reader
/// runs through its events.
///
/// Three buffers of fixed size, allocated once: the events; the attributes' pointers, in libxml2's own layout
/// (five an attribute: local name, prefix, URI, value start, value end); and the bytes of attribute values and
/// text. Names keep libxml2's pointers (its dictionary keeps them for the parser's life); values and text are
/// copied, and a kept attribute's value pointers point at its copy (the buffers never move), so reading a tag
/// back is a few loads. What does not fit waits until the log is delivered; an event larger than a whole buffer
/// is delivered on its own. One owner, one thread.
final class XMLEventLog {
    /// What `next` found.
    enum Event {
        /// A start tag: `attributes` holds five pointers an attribute, as libxml2 gives them; valid until the log
        /// is delivered.
        case start(localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>?,
                   attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, attributeCount: Int)
        case end(localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>?)
        /// Character data, valid until the log is delivered.
        case text(UnsafeBufferPointer<UInt8>)
    }

    private enum Kind: UInt8 {
        case start, end, text
    }

    /// One event: where its attributes or text are in the other buffers (32 bytes).
    private struct Record {
        var localName: UnsafePointer<UInt8>?
        var namespaceURI: UnsafePointer<UInt8>?
        /// A start tag's first attribute pointer in `pointers`, or a text's first byte in `bytes`.
        var start: Int32
        /// A start tag's attributes, or a text's bytes.
        var count: Int32
        var kind: Kind
    }

    /// Events kept at once: a feed's entry gives twenty or so, so some hundred entries go to the reader together
    /// (enough for each side's code to stay in the cache while it runs, and for the reader's phases over the issues
    /// it reads whole: half as many took 2% longer), and the log stays small.
    static let recordCapacity = 2 << 10
    static let pointerCapacity = 4 << 10
    /// The most copied bytes the log holds.
    static let capacityBytes = 64 << 10
    /// All the log's memory, for the reader's count of what it holds.
    static let memoryBytes = capacityBytes + recordCapacity * MemoryLayout<Record>.stride
        + pointerCapacity * MemoryLayout<UnsafePointer<UInt8>?>.stride

    private let records = UnsafeMutablePointer<Record>.allocate(capacity: recordCapacity)
    private let pointers = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: pointerCapacity)
    private let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: capacityBytes)
    private var recordCount = 0, pointerCount = 0, byteCount = 0
    /// Records read by `next`.
    private var read = 0

    deinit {
        records.deallocate()
        pointers.deallocate()
        bytes.deallocate()
    }

    var isEmpty: Bool { recordCount == 0 }

    /// Keeps a start tag (libxml2's five pointers an attribute); false when it does not fit now.
    @inline(__always)
    func recordStart(localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>?,
                     attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, attributeCount: Int) -> Bool {
        guard recordCount < Self.recordCapacity, pointerCount + 5 * attributeCount <= Self.pointerCapacity else { return false }
        var valueBytes = 0
        if let attributes {
            for index in 0..<attributeCount {
                if let start = attributes[index * 5 + 3], let end = attributes[index * 5 + 4] { valueBytes += end - start }
            }
        }
        guard byteCount + valueBytes <= Self.capacityBytes else { return false }
        records[recordCount] = Record(localName: localName, namespaceURI: namespaceURI, start: Int32(pointerCount), count: Int32(attributeCount), kind: .start)
        recordCount += 1
        if let attributes {
            // The same five pointers, the value's two now into its copy.
            for index in 0..<attributeCount {
                let from = attributes + index * 5, to = pointers + pointerCount + index * 5
                to[0] = from[0]
                to[1] = from[1]
                to[2] = from[2]
                let value = bytes + byteCount
                var length = 0
                if let start = from[3], let end = from[4] {
                    length = end - start
                    if length > 0 { value.update(from: start, count: length) }
                }
                // A value without pointers (libxml2 always gives both) reads back as an empty one.
                to[3] = UnsafePointer(value)
                to[4] = UnsafePointer(value + length)
                byteCount += length
            }
            pointerCount += 5 * attributeCount
        }
        return true
    }

    /// Keeps an end tag; false when it does not fit now.
    @inline(__always)
    func recordEnd(localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>?) -> Bool {
        guard recordCount < Self.recordCapacity else { return false }
        records[recordCount] = Record(localName: localName, namespaceURI: namespaceURI, start: 0, count: 0, kind: .end)
        recordCount += 1
        return true
    }

    /// Keeps a piece of character data; false when it does not fit now. A piece right after another is added to it:
    /// libxml2 gives text in many pieces (each entity reference is one), and the reader wants it whole.
    @inline(__always)
    func recordText(_ text: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard byteCount + count <= Self.capacityBytes else { return false }
        if recordCount > 0, records[recordCount - 1].kind == .text {
            // Its bytes are the last ones kept: these follow them.
            records[recordCount - 1].count += Int32(count)
        } else {
            guard recordCount < Self.recordCapacity else { return false }
            records[recordCount] = Record(localName: nil, namespaceURI: nil, start: Int32(byteCount), count: Int32(count), kind: .text)
            recordCount += 1
        }
        (bytes + byteCount).update(from: text, count: count)
        byteCount += count
        return true
    }

    /// The next event in the order they were kept, or nil (and the log empty again) when all were read.
    @inline(__always)
    func next() -> Event? {
        guard read < recordCount else {
            read = 0
            recordCount = 0
            pointerCount = 0
            byteCount = 0
            return nil
        }
        read += 1
        return event(at: read - 1)
    }

    /// The event `offset` places after the next one `next` gives (0: that one), or nil past the last kept: a reader
    /// may look ahead at the events still to come, and take those it read itself with `skip`.
    @inline(__always)
    func peek(_ offset: Int) -> Event? {
        read + offset < recordCount ? event(at: read + offset) : nil
    }

    /// Passes over the next `count` events (read with `peek`).
    func skip(_ count: Int) {
        read = min(read + count, recordCount)
    }

    @inline(__always)
    private func event(at index: Int) -> Event {
        let record = records[index]
        switch record.kind {
        case .start:
            return .start(localName: record.localName!, namespaceURI: record.namespaceURI,
                          attributes: record.count == 0 ? nil : pointers + Int(record.start), attributeCount: Int(record.count))
        case .end:
            return .end(localName: record.localName!, namespaceURI: record.namespaceURI)
        case .text:
            return .text(UnsafeBufferPointer(start: bytes + Int(record.start), count: Int(record.count)))
        }
    }
}

/// A stack of plain values (no references: `Element` must be trivially copyable, as a feed reader's frames are)
/// that a streaming reader pushes and pops on every element. Held in memory of its own, a push or a pop is a
/// store or a load and a count: an `Array` checked its buffer's uniqueness, and its bounds, on each of the
/// hundreds of thousands a large feed makes (a few per cent of reading one). One owner, one thread.
final class PlainStack<Element> {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 32) {
        precondition(_isPOD(Element.self), "PlainStack holds plain values only: it never deinitialises them")
        self.capacity = max(4, capacity)
        storage = .allocate(capacity: self.capacity)
    }

    deinit {
        // Plain values: nothing to deinitialise.
        storage.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// The top element, or nil when the stack is empty.
    var last: Element? {
        @inline(__always) get { count > 0 ? storage[count - 1] : nil }
    }

    @inline(__always)
    func append(_ element: Element) {
        if count == capacity { grow() }
        (storage + count).initialize(to: element)
        count += 1
    }

    @inline(__always)
    func popLast() -> Element? {
        guard count > 0 else { return nil }
        count -= 1
        return storage[count]
    }

    private func grow() {
        let newStorage = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        newStorage.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity *= 2
    }
}

import Foundation

/// The refresh times of feeds that answered 304 Not Modified during a sync, saved to the library together: one
/// transaction (one committed write) for up to `size` feeds, or for what came in over `maxDelay`, instead of one
/// per feed. A time is all an unchanged feed's refresh writes.
///
/// Whoever fills it calls ``save()`` when done. A process killed before then loses only the times not yet saved:
/// those feeds show their previous refresh time and are fetched again at the next sync, as every feed is.
/// Safe to use from any thread.
public final class UnchangedRefreshBatch: @unchecked Sendable {
    public let store: LibraryStore
    /// How many refresh times make a transaction.
    public let size: Int
    /// The longest a time waits for others before it is saved (checked as times arrive; ``save()`` takes the rest).
    public let maxDelay: TimeInterval
    private let lock = NSLock()
    private var pending: [(publicationID: Int64, date: Date)] = []
    private var oldest: Date?

    public init(store: LibraryStore, size: Int = 100, maxDelay: TimeInterval = 1) {
        self.store = store
        self.size = max(1, size)
        self.maxDelay = maxDelay
    }

    /// Adds a feed found unchanged at `date`; saves the batch when it is full or its oldest time has waited `maxDelay`.
    public func add(publicationID: Int64, at date: Date = Date()) {
        let full: [(publicationID: Int64, date: Date)]? = lock.withLock {
            pending.append((publicationID, date))
            oldest = oldest ?? date
            guard pending.count >= size || (oldest.map { date.timeIntervalSince($0) >= maxDelay } ?? false) else { return nil }
            return takePending()
        }
        if let full { write(full) }
    }

    /// Saves every time not yet saved.
    public func save() {
        write(lock.withLock { takePending() })
    }

    /// How many times wait to be saved.
    public var unsavedCount: Int { lock.withLock { pending.count } }

    private func takePending() -> [(publicationID: Int64, date: Date)] {
        defer {
            pending.removeAll(keepingCapacity: true)
            oldest = nil
        }
        return pending
    }

    /// One transaction for all; should it fail (the library busy past its timeout, say), each time on its own, so one
    /// that cannot be written does not lose the others.
    private func write(_ refreshes: [(publicationID: Int64, date: Date)]) {
        guard !refreshes.isEmpty else { return }
        if (try? store.recordUnchangedRefreshes(refreshes)) != nil { return }
        for refresh in refreshes {
            try? store.recordUnchangedRefreshes([refresh])
        }
    }
}

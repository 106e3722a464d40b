import Foundation
import Synchronization

/// The refresh times of feeds that answered 304 Not Modified during a sync, saved to the library together: one
/// transaction (one committed write) for up to `size` feeds, or for what came in over `maxDelay`, instead of one
/// per feed. A time is all an unchanged feed's refresh writes.
///
/// Whoever fills it calls ``save()`` when done. A process killed before then loses only the times not yet saved:
/// those feeds show their previous refresh time and are fetched again at the next sync, as every feed is.
/// Safe to use from any thread.
public final class UnchangedRefreshBatch: Sendable {
    public let store: LibraryStore
    /// How many refresh times make a transaction.
    public let size: Int
    /// The longest a time waits for others before it is saved (checked as times arrive; ``save()`` takes the rest).
    public let maxDelay: TimeInterval
    private let pending = Mutex(Pending())

    /// The times not yet saved, and the oldest of them.
    private struct Pending {
        var refreshes: [(publicationID: Int64, date: Date)] = []
        var oldest: Date?

        /// Empties the batch, returning what it held.
        mutating func take() -> [(publicationID: Int64, date: Date)] {
            defer {
                refreshes.removeAll(keepingCapacity: true)
                oldest = nil
            }
            return refreshes
        }
    }

    public init(store: LibraryStore, size: Int = 100, maxDelay: TimeInterval = 1) {
        self.store = store
        self.size = max(1, size)
        self.maxDelay = maxDelay
    }

    /// Adds a feed found unchanged at `date`; saves the batch when it is full or its oldest time has waited `maxDelay`.
    public func add(publicationID: Int64, at date: Date = Date()) {
        let full: [(publicationID: Int64, date: Date)]? = pending.withLock { pending in
            pending.refreshes.append((publicationID, date))
            pending.oldest = pending.oldest ?? date
            guard pending.refreshes.count >= size || (pending.oldest.map { date.timeIntervalSince($0) >= maxDelay } ?? false) else { return nil }
            return pending.take()
        }
        if let full { write(full) }
    }

    /// Saves every time not yet saved.
    public func save() {
        write(pending.withLock { $0.take() })
    }

    /// How many times wait to be saved.
    public var unsavedCount: Int { pending.withLock { $0.refreshes.count } }

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

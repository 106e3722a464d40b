/// A bounded cache that forgets the entry used longest ago when full. Not thread-safe: its owner serialises access.
struct LeastRecentlyUsedCache<Key: Hashable, Value> {
    private var values: [Key: (value: Value, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { values.count }

    mutating func value(for key: Key) -> Value? {
        guard let entry = values[key] else { return nil }
        clock += 1
        values[key] = (entry.value, clock)
        return entry.value
    }

    mutating func insert(_ value: Value, for key: Key) {
        clock += 1
        values[key] = (value, clock)
        if values.count > capacity, let oldest = values.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            values[oldest] = nil
        }
    }
}

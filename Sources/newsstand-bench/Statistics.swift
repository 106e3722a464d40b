import Foundation

/// Summary figures for a set of timings or counts.
///
/// Percentiles use the nearest-rank method on the sorted samples: the p-th percentile is the
/// smallest sample with at least p% of the samples at or below it. The median of an even number
/// of samples is the mean of the two middle ones.
struct Statistics {
    let samples: [Double]
    private let sorted: [Double]

    init(_ samples: [Double]) {
        precondition(!samples.isEmpty, "statistics of no samples")
        self.samples = samples
        sorted = samples.sorted()
    }

    var count: Int { sorted.count }
    var min: Double { sorted[0] }
    var max: Double { sorted[sorted.count - 1] }
    var mean: Double { sorted.reduce(0, +) / Double(sorted.count) }

    var median: Double {
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Nearest-rank percentile, `p` in 0...100.
    func percentile(_ p: Double) -> Double {
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }
}

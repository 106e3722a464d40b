/// Limits that stop hostile archives (zip bombs, huge entry counts).
///
/// `maxCompressionRatio` is measured as bytes written against compressed bytes read,
/// per entry and for the archive as a whole, and only once the amount written exceeds
/// `ratioCheckThreshold` so that tiny, highly compressible files never trip it.
public struct ExtractionLimits: Sendable, Equatable {
    /// Most entries (files and folders) an archive may hold.
    public var maxEntries: Int
    /// Most bytes all entries together may expand to.
    public var maxTotalBytes: Int64
    /// Highest allowed ratio of bytes written to compressed bytes.
    public var maxCompressionRatio: Double
    /// Bytes an entry (or the archive) must exceed before the ratio is checked.
    public var ratioCheckThreshold: Int64

    public init(
        maxEntries: Int = 10_000,
        maxTotalBytes: Int64 = 2 * 1024 * 1024 * 1024,
        maxCompressionRatio: Double = 200,
        ratioCheckThreshold: Int64 = 1024 * 1024
    ) {
        self.maxEntries = maxEntries
        self.maxTotalBytes = maxTotalBytes
        self.maxCompressionRatio = maxCompressionRatio
        self.ratioCheckThreshold = ratioCheckThreshold
    }

    /// 10,000 entries, 2 GiB uncompressed, ratio 200 past 1 MiB.
    public static let `default` = ExtractionLimits()
}

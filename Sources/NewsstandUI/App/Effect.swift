import NewsstandCore

/// Work the UI asks for; an `EffectRunner` carries it out in the background and answers with messages.
/// Effects are plain data so tests can assert on them.
public enum Effect: Equatable, Sendable {
    case loadLibrary
    /// Reloads the library only if another process (a sync) changed it.
    case reloadLibraryIfChangedElsewhere
    case refreshPublications
    case startDownload(issueID: Int64)
    case cancelDownload(issueID: Int64)
    case requestCovers([CoverArtRequest])
    case openIssue(issueID: Int64)
    case loadArticle(issueID: Int64, articleIndex: Int)
    case saveReadingPosition(issueID: Int64, ReadingPosition)
    /// Remembers a small preference in the library (like the shelf's view).
    case saveSetting(key: String, value: String)
    case quit
    /// Stops a download and keeps its partial (the issue is stored as paused).
    case pauseDownload(issueID: Int64)
    /// Continues a paused download from its partial.
    case resumeDownload(issueID: Int64)
    /// Queues a failed download again, continuing from its partial where one was kept.
    case retryDownload(issueID: Int64)
    /// Moves a queued download `by` places in line (negative: towards the front).
    case moveDownload(issueID: Int64, by: Int)
    case setMaxConcurrentDownloads(Int)
    /// Bytes per second for all downloads together; nil for no limit.
    case setRateLimit(Int?)
}

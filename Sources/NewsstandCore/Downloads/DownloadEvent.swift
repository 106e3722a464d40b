/// What the download queue reports as work proceeds. Delivered on a background queue;
/// a front end forwards them to its own thread.
public enum DownloadEvent: Sendable, Equatable {
    /// Waiting for a free transfer slot.
    case queued(issueID: Int64)
    /// Bytes arrived; `fraction` is 0…1 over all of the issue's assets (throttled at the source).
    case progressed(issueID: Int64, fraction: Double, receivedBytes: Int64, totalBytes: Int64?)
    /// Downloaded, verified and installed: the issue is available.
    case installed(issueID: Int64)
    /// The download or install failed; the issue keeps its reason.
    case failed(issueID: Int64, reason: String)
}

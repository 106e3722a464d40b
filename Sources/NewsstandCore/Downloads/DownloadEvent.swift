import Foundation

/// What the download queue reports as work proceeds. Delivered on a background queue;
/// a front end forwards them to its own thread.
public enum DownloadEvent: Sendable, Equatable {
    /// Waiting for a free transfer slot; `position` is 1-based in the waiting line. Sent again when
    /// the position changes (another issue started, was moved, paused or cancelled).
    case queued(issueID: Int64, position: Int)
    /// The transfer began. `resumedAt` is the fraction (0…1) already on disk when resuming a
    /// partial download, nil when starting fresh.
    case started(issueID: Int64, resumedAt: Double?)
    /// Bytes arrived; `fraction` is 0…1 over all of the issue's assets (throttled at the source:
    /// at most one report per half percent or 100 ms). `receivedBytes` counts what is on disk,
    /// including what a resumed download already had; `bytesPerSecond` is the recent rate.
    case progressed(issueID: Int64, fraction: Double, receivedBytes: Int64, totalBytes: Int64?, bytesPerSecond: Double)
    /// Paused by the user; the partial download is kept.
    case paused(issueID: Int64)
    /// A transient failure (timeout, dropped connection, 5xx, 408, 429): the download continues from
    /// its partial after `delay` seconds, as attempt number `attempt`.
    case retrying(issueID: Int64, attempt: Int, delay: TimeInterval, reason: String)
    /// Downloaded; now being verified and installed.
    case installing(issueID: Int64)
    /// Downloaded, verified and installed: the issue is available.
    case installed(issueID: Int64)
    /// The download or install failed; the issue keeps its reason.
    case failed(issueID: Int64, reason: String)
    /// Cancelled by the user; the partial download is gone and the issue is not downloaded.
    case cancelled(issueID: Int64)
    /// Not started because something else has it: another Newsstand process is downloading the issue
    /// (`reason` says so). The queue tries again every few seconds; it takes no transfer slot meanwhile.
    case waiting(issueID: Int64, reason: String)
}

extension DownloadEvent {
    /// The issue the event is about.
    public var issueID: Int64 {
        switch self {
        case .queued(let id, _), .started(let id, _), .progressed(let id, _, _, _, _), .paused(let id), .retrying(let id, _, _, _),
             .installing(let id), .installed(let id), .failed(let id, _), .cancelled(let id), .waiting(let id, _):
            id
        }
    }
}

/// Where an issue stands on this machine.
public enum IssueState: Sendable, Equatable {
    /// Known from the catalog, nothing on disk: TAP TO DOWNLOAD.
    case notDownloaded
    /// Queued or transferring; progress is kept on the issue.
    case downloading
    /// Stopped by the user with its partial download kept; not resumed by itself at the next start.
    /// Progress is kept on the issue.
    case paused
    /// Complete and installed: TAP TO READ.
    case available
    /// The last download or install failed; the reason is in plain words.
    case failed(reason: String)

    /// The name stored in the library database.
    public var storedName: String {
        switch self {
        case .notDownloaded: "none"
        case .downloading: "downloading"
        case .paused: "paused"
        case .available: "available"
        case .failed: "failed"
        }
    }

    /// Builds a state from its stored name and failure reason.
    public init(storedName: String, reason: String?) {
        switch storedName {
        case "downloading": self = .downloading
        case "paused": self = .paused
        case "available": self = .available
        case "failed": self = .failed(reason: reason ?? "unknown error")
        default: self = .notDownloaded
        }
    }
}

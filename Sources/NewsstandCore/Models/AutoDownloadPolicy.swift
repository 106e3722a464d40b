/// Which new issues of a publication download by themselves when they arrive.
public enum AutoDownloadPolicy: String, Sendable, CaseIterable {
    /// None: new issues wait for a tap.
    case none
    /// The newest issue only.
    case latest
    /// Every issue that arrives.
    case all
}

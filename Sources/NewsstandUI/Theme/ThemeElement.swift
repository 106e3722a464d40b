/// The parts of the interface a theme gives a style to. The raw value is the name used in theme files.
public enum ThemeElement: String, CaseIterable, Sendable {
    case background
    case header
    case headerTab = "header-tab"
    case headerActiveTab = "header-active-tab"
    case title
    case date
    case summary
    case selection
    case stateDownload = "state-download"
    case stateRead = "state-read"
    case stateFailed = "state-failed"
    case progressDone = "progress-done"
    case progressRemaining = "progress-remaining"
    case newMarker = "new-marker"
    case readingMarker = "reading-marker"
    case cover
    case coverPlaceholder = "cover-placeholder"
    case status
    case statusKey = "status-key"
    case message
    case error
    case heading
    case text
    case quote
    case code
    case link
    /// A passage the reader highlighted (and the passages of notes).
    case highlight
    case helpKey = "help-key"
    case helpText = "help-text"
}

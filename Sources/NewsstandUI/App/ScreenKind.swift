/// The screens of the interface, for key bindings and hints.
public enum ScreenKind: Hashable, Sendable, CaseIterable {
    case shelf
    /// One issue's page: its cover large, with its details.
    case detail
    case contents
    case article
    case help
    /// Every download: running, queued, retrying, paused and failed, with the queue's controls.
    case downloads
}

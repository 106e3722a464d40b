/// The screens of the interface, for key bindings and hints.
public enum ScreenKind: Hashable, Sendable, CaseIterable {
    case shelf
    /// One issue's page: its cover large, with its details.
    case detail
    case contents
    case article
    case help
    /// Results of a search across every downloaded issue.
    case searchResults
}

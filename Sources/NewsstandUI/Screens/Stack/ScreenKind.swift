/// The kinds of screen, for key bindings and hints (`Screen` carries each one's state).
public enum ScreenKind: Hashable, Sendable, CaseIterable {
    case shelf
    /// One issue's page: its cover large, with its details.
    case detail
    case contents
    case article
    case help
    /// Every subscription with its feed, policy, last refresh and counts.
    case subscriptions
    /// A publication's feed items that have nothing to download.
    case headlines
    /// Space used per publication, and what the storage budget would remove.
    case storage
    /// Accounts on feed servers (the Google Reader API), to add and remove.
    case accounts
    /// A feed's catalog: navigation entries to follow (OPDS) and its issues.
    case catalog
    /// The ways a catalog offers one title (format, size, kind), to download one into the Library shelf.
    case acquisitions
    /// A catalog entry's pages streamed one at a time from its server (OPDS-PSE), nothing downloaded.
    case streamedPages
    /// Results of a search across every downloaded issue.
    case searchResults
    /// Every download: running, queued, retrying, paused and failed, with the queue's controls.
    case downloads
    /// The article while a passage is chosen to highlight (`v`).
    case selection
    /// The open issue's bookmarks, to jump to one.
    case bookmarks
    /// The open issue's highlights and notes, to jump to one.
    case highlights
}

import NewsstandImaging

/// What the cover service reports. Each result names the request it answers, so a front end
/// stores it under that issue and size, and it can only ever appear in that row.
public enum CoverArtEvent: Sendable, Equatable {
    case rendered(CoverArtRequest, TextArt)
    /// The cover could not be fetched or decoded; the row keeps its placeholder.
    case failed(CoverArtRequest, reason: String)
}

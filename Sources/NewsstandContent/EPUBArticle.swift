import Foundation

/// One entry in a publication's reading order.
public struct EPUBArticle: Sendable, Equatable {
    /// From the table of contents entry pointing at the file, else the document's `<title>` or
    /// first heading, else "Section N".
    public let title: String
    /// Absolute file URL inside the book folder.
    public let file: URL
    /// The manifest media type, e.g. "application/xhtml+xml" or "image/jpeg".
    public let mediaType: String
    /// Its place in the spine, counting from 1 (non-linear items too): KOReader's `DocFragment[N]`. 0 when not from a spine.
    public let spinePosition: Int

    public init(title: String, file: URL, mediaType: String, spinePosition: Int = 0) {
        self.title = title
        self.file = file
        self.mediaType = mediaType
        self.spinePosition = spinePosition
    }
}

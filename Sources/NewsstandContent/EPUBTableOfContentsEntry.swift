import Foundation

/// One line of a publication's table of contents, with its nested entries.
public struct EPUBTableOfContentsEntry: Sendable, Equatable {
    public let title: String
    /// Absolute file URL inside the book folder; nil for headings that link nowhere, remote
    /// links and links that would leave the book folder.
    public let file: URL?
    /// The part after `#`, percent-decoded, if any.
    public let fragment: String?
    public let children: [EPUBTableOfContentsEntry]

    public init(title: String, file: URL?, fragment: String?, children: [EPUBTableOfContentsEntry] = []) {
        self.title = title
        self.file = file
        self.fragment = fragment
        self.children = children
    }
}

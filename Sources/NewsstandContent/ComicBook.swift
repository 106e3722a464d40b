import Foundation

/// A comic book (CBZ, CB7 or CBT) unpacked into a folder: its title and its pages in reading order.
public struct ComicBook: Sendable, Equatable {
    /// From `ComicInfo.xml` ("Series #Number: Title"), else the archive's one top-level folder, else "Untitled".
    public let title: String
    public let pages: [ComicPage]
    /// `ComicInfo.xml` as read, when the book has one that could be used.
    public let info: ComicInfo?

    public init(title: String, pages: [ComicPage], info: ComicInfo? = nil) {
        self.title = title
        self.pages = pages
        self.info = info
    }
}

/// One page of a comic book: a picture file in the book's folder.
public struct ComicPage: Sendable, Equatable {
    /// 1-based, in reading order.
    public let number: Int
    /// Absolute file URL inside the book's folder.
    public let file: URL
    /// The path inside the archive, e.g. "chapter 2/page10.png" (cleaned for the terminal).
    public let path: String
    /// What `ComicInfo.xml` says the page is: a bookmark, or its kind ("Front cover"); nil for plain pages.
    public let label: String?

    public init(number: Int, file: URL, path: String, label: String? = nil) {
        self.number = number
        self.file = file
        self.path = path
        self.label = label
    }

    /// "Page 3", or "Page 1: Front cover".
    public var title: String { label.map { "Page \(number): \($0)" } ?? "Page \(number)" }
}

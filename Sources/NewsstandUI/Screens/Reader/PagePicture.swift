import NewsstandImaging

/// A page drawn as a picture (a PDF page after `P`, a comic book's page): the article it is and its art.
public struct PagePicture: Equatable, Sendable {
    public let articleIndex: Int
    public let art: TextArt
}

/// Why a comic book could not be opened, in plain words ("the comic book has no page pictures").
public struct ComicBookError: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

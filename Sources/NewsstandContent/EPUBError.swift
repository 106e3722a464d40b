/// Why a publication could not be opened, in plain words
/// ("missing META-INF/container.xml", "spine is empty", ...).
public struct EPUBError: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

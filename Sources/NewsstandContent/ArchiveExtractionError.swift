/// Why an archive was refused or could not be unpacked, in plain words.
public struct ArchiveExtractionError: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Why a catalog could not be read, in plain words.
public struct CatalogError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Why a download or install failed, in plain words for the row.
public struct DownloadError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

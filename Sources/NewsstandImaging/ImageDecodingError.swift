/// Why an image could not be decoded, in plain words
/// (for example "not a PNG or JPEG image", "truncated JPEG data", "PNG CRC error").
public struct ImageDecodingError: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }

    static let unrecognisedFormat = ImageDecodingError("not a PNG or JPEG image")
}

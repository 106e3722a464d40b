/// The image container formats `ImageDecoder` can read.
public enum ImageFormat: Sendable {
    case png
    case jpeg
}

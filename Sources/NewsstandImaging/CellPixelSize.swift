/// The size of one terminal cell in pixels: a picture shown over columns × rows cells is made
/// (columns × width) × (rows × height) pixels, never larger.
public struct CellPixelSize: Sendable, Hashable {
    public let width: Int
    public let height: Int

    /// A size kept within 2–64 × 4–128 pixels, so a wrong answer from a terminal cannot make huge pictures.
    public init(width: Int, height: Int) {
        self.width = min(max(width, 2), 64)
        self.height = min(max(height, 4), 128)
    }

    /// What is assumed when the terminal does not say: 8 × 16 pixels.
    public static let fallback = CellPixelSize(width: 8, height: 16)
}

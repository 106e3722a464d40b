/// The `cover-mode` a user asks for: `auto` (chosen from the terminal's answers), a picture protocol,
/// or one of the text modes (`CoverArtMode`).
public enum CoverModeSetting: String, Sendable, CaseIterable {
    case auto
    case kitty
    case sixel
    case iterm
    case blocks
    case asciiColor = "ascii-color"
    case ascii

    /// The picture protocol this setting names, if it names one.
    public var pictureProtocol: PictureProtocol? { PictureProtocol(rawValue: rawValue) }

    /// The text mode this setting names, if it names one.
    public var textMode: CoverArtMode? { CoverArtMode(rawValue: rawValue) }

    /// The setting naming a text mode.
    public init(_ mode: CoverArtMode) {
        self = CoverModeSetting(rawValue: mode.rawValue)!
    }

    /// Every value, as a user would read them: "auto, kitty, …, ascii-color or ascii".
    public static var spelledOut: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}

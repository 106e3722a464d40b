/// A way to show real pictures in a terminal, instead of drawing them as text.
///
/// - `kitty`: kitty's graphics protocol with Unicode placeholders (the picture lives in ordinary cells).
/// - `sixel`: DEC sixel graphics, drawn after each frame at the picture's cells.
/// - `iterm`: iTerm2's inline images (OSC 1337), drawn like sixel.
public enum PictureProtocol: String, Sendable, CaseIterable {
    case kitty
    case sixel
    case iterm
}

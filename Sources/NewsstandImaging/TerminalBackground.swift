/// Which way round ink works on the terminal: on `.dark`, bright pixels get dense glyphs;
/// on `.light` it is inverted, so dark pixels get dense glyphs.
public enum TerminalBackground: Sendable {
    case dark
    case light
}

/// How a cover is drawn as text.
///
/// - `ascii`: 7-bit glyphs, no colour (the theme's cover style colours them).
/// - `asciiColor`: the same glyphs, each with its cell's average colour as foreground.
/// - `blocks`: Unicode upper half blocks "▀", two pixels per cell: foreground = top pixel, background = bottom pixel.
public enum CoverArtMode: String, Sendable, CaseIterable {
    case ascii
    case asciiColor = "ascii-color"
    case blocks
}

import NewsstandImaging

/// A colour theme: a style for each interface element, and whether the terminal background is light.
public struct Theme: Equatable, Sendable {
    public var name: String
    /// Light themes invert cover art density (dark ink on a light page).
    public var isLight: Bool
    /// How the theme wants covers drawn (`cover-mode` in the file); nil leaves it to the terminal.
    public var coverMode: CoverArtMode?
    public var styles: [ThemeElement: TextStyle]

    public init(name: String, isLight: Bool = false, styles: [ThemeElement: TextStyle] = [:]) {
        self.name = name
        self.isLight = isLight
        self.styles = styles
    }

    /// The style of an element; unset elements take the background's style.
    public subscript(element: ThemeElement) -> TextStyle {
        styles[element] ?? styles[.background] ?? .plain
    }

    /// Attributes only, for NO_COLOR and terminals without colour: every colour becomes the
    /// terminal's default, and elements that relied on a background colour get reverse video instead.
    public func withoutColors() -> Theme {
        var plain = Theme(name: name, isLight: isLight)
        plain.coverMode = .ascii
        for (element, style) in styles {
            var attributes = style.attributes
            if style.background != .default && style.background != styles[.background]?.background { attributes.insert(.reverse) }
            plain.styles[element] = TextStyle(attributes: attributes)
        }
        return plain
    }

    /// The theme used when no theme file can be found: no colours, structure by attributes.
    public static let fallback = Theme(name: "fallback", styles: [
        .header: TextStyle(attributes: [.reverse]), .headerActiveTab: TextStyle(attributes: [.bold]),
        .title: TextStyle(attributes: [.bold]), .date: TextStyle(attributes: [.dim]), .selection: TextStyle(attributes: [.reverse]),
        .stateDownload: TextStyle(attributes: [.bold]), .stateRead: TextStyle(attributes: [.bold]), .stateFailed: TextStyle(attributes: [.bold, .underline]),
        .progressDone: TextStyle(attributes: [.reverse]), .newMarker: TextStyle(attributes: [.bold, .reverse]),
        .readingMarker: TextStyle(attributes: [.bold]), .status: TextStyle(attributes: [.reverse]), .statusKey: TextStyle(attributes: [.reverse, .bold]),
        .error: TextStyle(attributes: [.bold]), .heading: TextStyle(attributes: [.bold]), .quote: TextStyle(attributes: [.italic]),
        .link: TextStyle(attributes: [.underline]), .highlight: TextStyle(attributes: [.underline, .bold]), .helpKey: TextStyle(attributes: [.bold]),
    ])
}

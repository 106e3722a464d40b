import NewsstandImaging

/// Which theme the shelf uses: one named by the user, or `auto`, which follows the terminal's background
/// (asked at start-up): `light` for a light background, `dark` for a dark one.
public enum ThemeChoice: Equatable, Sendable {
    case fixed(Theme)
    case followingBackground(dark: Theme, light: Theme)

    /// The name that means "follow the terminal" in the config and `--theme`.
    public static let automaticName = "auto"
    /// The bundled themes `auto` chooses between.
    public static let darkName = "dark", lightName = "paper"

    /// Whether the terminal's background decides.
    public var followsBackground: Bool {
        if case .followingBackground = self { return true }
        return false
    }

    /// The theme for a terminal whose background is `background`.
    public func theme(for background: TerminalBackground) -> Theme {
        switch self {
        case .fixed(let theme): return theme
        case .followingBackground(let dark, let light): return background == .light ? light : dark
        }
    }

    /// The same choice with every theme drawn without colours (`Theme.withoutColors`).
    public func withoutColors() -> ThemeChoice {
        switch self {
        case .fixed(let theme): return .fixed(theme.withoutColors())
        case .followingBackground(let dark, let light): return .followingBackground(dark: dark.withoutColors(), light: light.withoutColors())
        }
    }
}

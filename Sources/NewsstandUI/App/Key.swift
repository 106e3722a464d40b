/// A key press or mouse action, as the backend decodes it.
public enum Key: Hashable, Sendable {
    case character(Character)
    case control(Character)   // Ctrl-C is .control("c")
    case enter, escape, tab, backTab, backspace
    case up, down, left, right, pageUp, pageDown, home, end
    case mouseClick(x: Int, y: Int)
    case scrollUp, scrollDown

    /// How the key is written in help and hints.
    public var label: String {
        switch self {
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .control(let character): "Ctrl-\(character.uppercased())"
        case .enter: "Enter"
        case .escape: "Esc"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .backspace: "Backspace"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .mouseClick: "click"
        case .scrollUp: "wheel up"
        case .scrollDown: "wheel down"
        }
    }
}

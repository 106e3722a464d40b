/// The screens of the interface, for key bindings and hints.
public enum ScreenKind: Hashable, Sendable, CaseIterable {
    case shelf
    case contents
    case article
    case help
}

/// What a shell completes for an option's value or a command's positional argument; `CommandTable` says it per
/// option and command, and the completion scripts (`newsstand completion SHELL`) are written from that.
enum ValueCompletion: Sendable, Equatable {
    /// Free text (a URL, a number, a name): nothing is offered.
    case nothing
    /// One of these words (taken from the enum that defines them, as `AutoDownloadPolicy.allCases`).
    case choices([String])
    /// A file name.
    case files
    /// An issue of the library (`PUBLICATION/NAME`, or `NAME` when no other publication has it).
    case issues
    /// A publication of the library, by name.
    case publications
    /// A theme: the bundled ones and the user's.
    case themes
    /// A host with a saved login (`HOST` or `HOST:PORT`, never more of the login).
    case hosts
    /// A command word.
    case commands

    /// The kind of names the library helper (`newsstand __names KIND PREFIX`) prints for this, when it is read at run time.
    var namesKind: String? {
        switch self {
        case .issues: "issues"
        case .publications: "publications"
        case .themes: "themes"
        case .hosts: "hosts"
        case .nothing, .choices, .files, .commands: nil
        }
    }
}

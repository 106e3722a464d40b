/// A command that could not do its job; printed as `newsstand: …`, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

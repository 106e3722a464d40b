/// A mistake in how the program was called; printed with a pointer to --help, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

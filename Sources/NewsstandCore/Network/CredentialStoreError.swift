/// Why the credential store could not be read or written, in plain words (never with a password in them).
public struct CredentialStoreError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

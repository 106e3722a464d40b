/// A server's request for a login that no saved one answered: which host (`CredentialHost` text) and realm.
public struct LoginChallenge: Sendable, Equatable {
    public var host: String
    public var realm: String?

    public init(host: String, realm: String?) {
        self.host = host
        self.realm = realm
    }
}

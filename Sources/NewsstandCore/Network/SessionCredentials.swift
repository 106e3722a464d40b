import Foundation
import Synchronization

/// Logins kept in memory for as long as the program runs (a login the user chose not to save), looked up
/// before those of another source (the credential store) they are layered over.
public final class SessionCredentials: CredentialSource, Sendable {
    /// Where logins not kept here are looked up.
    public let base: (any CredentialSource)?
    private let entries = Mutex<[CredentialEntry]>([])

    public init(over base: (any CredentialSource)?) {
        self.base = base
    }

    /// Keeps a login for `host` and `realm` (nil: any realm) until the program ends, replacing one kept for the same.
    public func remember(_ credentials: Credentials, for host: CredentialHost, realm: String? = nil) {
        let entry = CredentialEntry(host: host, realm: realm, credentials: credentials)
        entries.withLock { entries in
            entries.removeAll { $0.host == entry.host && $0.realm == entry.realm }
            entries.append(entry)
        }
    }

    /// Forgets the logins kept in memory for the host called `host` (every port and realm).
    public func forget(host: String) {
        let name = CredentialHost(host: host).host
        entries.withLock { entries in entries.removeAll { $0.host.host == name } }
    }

    /// A login kept here (by the rules of `CredentialEntry.best`), else the base source's.
    public func credentials(forHost host: String, port: Int?, realm: String?) -> Credentials? {
        let kept = entries.withLock { CredentialEntry.best(in: $0, host: host, port: port, realm: realm) }
        return kept?.credentials ?? base?.credentials(forHost: host, port: port, realm: realm)
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The library's saved logins: one file, `credentials` in the XDG data folder beside the database, written
/// only by Newsstand (`newsstand login`, a URL with `user:password@`, the shelf's login prompt).
///
/// **The file.** UTF-8 text. Lines starting with `#` are comments (the first says the format's version); every
/// other line is one login, four fields separated by tabs:
///
///     HOST[:PORT] <tab> REALM <tab> USER <tab> PASSWORD
///
/// `HOST` is lowercase, an IPv6 address in brackets; the port is given only when it is not the scheme's
/// default. An empty `REALM` matches every realm of the host. Each field is percent-encoded where it holds
/// `%`, a tab, a line break or another control character (`%25`, `%09`, `%0A`…), nothing else. There is one
/// login per host, port and realm: saving again replaces it. Lines that cannot be read are skipped (and
/// dropped at the next write).
///
/// **Keeping it private.** Every write goes to a new file created with mode 0600 (`mkstemp`: never readable
/// by others, not even for an instant), written in full and synced, then renamed over the old one, so the
/// file is always whole and always 0600 after a write; writers take an exclusive `flock` on `credentials.lock`
/// so two processes never lose each other's changes. The file is **not read** when it is a symbolic link or
/// not a regular file, belongs to another user, or when its group or other users have any permission on it
/// (mode & 077): its logins are then ignored (lookups find nothing) and every operation that needs them —
/// listing, saving, forgetting — fails with a message saying why and how to fix it (`chmod 600 FILE`). It is
/// never overwritten in that case, so nothing in it is lost without the user deciding.
public final class CredentialStore: CredentialSource, Sendable {
    public let file: URL

    /// The first line of the file: the format and its version.
    public static let formatLine = "# newsstand credentials 1"

    /// A larger file is not read (the store holds a few lines).
    static let maxFileSize = 1 << 20

    public init(file: URL) {
        self.file = file
    }

    /// The store of the library at `paths` (`credentials` in its data folder).
    public convenience init(paths: LibraryPaths) {
        self.init(file: paths.credentialsFile)
    }

    /// The lock writers hold while they read, change and replace the file.
    var lockFile: URL { file.deletingLastPathComponent().appendingPathComponent(file.lastPathComponent + ".lock") }

    // MARK: Reading

    /// The login for a request to `host` (and `port` when not the default), challenged for `realm` (nil before any
    /// challenge): see `CredentialEntry.best`. Nil when none is saved, or when the file is not read (see `problem()`).
    public func credentials(forHost host: String, port: Int?, realm: String?) -> Credentials? {
        guard let entries = try? entries() else { return nil }
        return CredentialEntry.best(in: entries, host: host, port: port, realm: realm)?.credentials
    }

    /// Why the file's logins are ignored, in plain words; nil when the file is missing or safe to read.
    public func problem() -> String? {
        do {
            _ = try entries()
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Every saved login, oldest first. Throws when the file is not safe to read or cannot be read.
    public func entries() throws -> [CredentialEntry] {
        guard let text = try readFile() else { return [] }
        return Self.parse(text)
    }

    /// Every saved login without its password, for lists.
    public func logins() throws -> [SavedLogin] {
        try entries().map(\.login)
    }

    // MARK: Changing

    /// Saves a login for `host` and `realm` (nil: any realm), replacing the one saved for the same host, port and realm.
    public func save(_ credentials: Credentials, for host: CredentialHost, realm: String? = nil) throws {
        guard !credentials.user.isEmpty else { throw CredentialStoreError("a login needs a user name") }
        guard !host.host.isEmpty else { throw CredentialStoreError("a login needs a host") }
        let entry = CredentialEntry(host: host, realm: realm, credentials: credentials)
        try change { entries in
            entries.removeAll { $0.host == entry.host && $0.realm == entry.realm }
            entries.append(entry)
            return true
        }
    }

    /// Forgets the logins (every realm) of exactly `host` at its port; returns what was forgotten.
    @discardableResult
    public func forget(_ host: CredentialHost) throws -> [SavedLogin] {
        try forget { $0.host == host }
    }

    /// Forgets every login of the host called `host`, whatever its port and realm; returns what was forgotten.
    @discardableResult
    public func forget(host: String) throws -> [SavedLogin] {
        let name = CredentialHost(host: host).host
        return try forget { $0.host.host == name }
    }

    /// Forgets the login saved for exactly `host` and `realm`; returns what was forgotten.
    @discardableResult
    public func forget(host: CredentialHost, realm: String) throws -> [SavedLogin] {
        try forget { $0.host == host && $0.realm == realm }
    }

    /// Moves the login a URL carries (`https://user:password@host/…`) into the store, for any realm of its host,
    /// and returns the URL's text without user information, with the login saved (nil when it carried none:
    /// a user without a password is dropped, not saved). Throws when the login cannot be saved; then nothing is.
    public func takeLogin(from text: String) throws -> (address: String, saved: SavedLogin?) {
        let parts = URLCredentials.split(text)
        guard let credentials = parts.credentials, let host = CredentialHost(parts.address) else { return (parts.address, nil) }
        try save(credentials, for: host)
        return (parts.address, SavedLogin(host: host, realm: nil, user: credentials.user))
    }

    private func forget(where matches: (CredentialEntry) -> Bool) throws -> [SavedLogin] {
        var forgotten: [SavedLogin] = []
        try change { entries in
            forgotten = entries.filter(matches).map(\.login)
            entries.removeAll(where: matches)
            return !forgotten.isEmpty
        }
        return forgotten
    }

    /// Reads the entries, lets `edit` change them (it says whether it did) and writes them back, all under the lock.
    private func change(_ edit: (inout [CredentialEntry]) -> Bool) throws {
        let directory = file.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw CredentialStoreError("cannot create \(directory.path): \(error.localizedDescription)")
        }
        let lock = open(lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else { throw CredentialStoreError("cannot open \(lockFile.path): \(Self.systemError())") }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw CredentialStoreError("cannot lock \(lockFile.path): \(Self.systemError())") }
        }
        var entries = try entries()
        guard edit(&entries) else { return }
        try replaceFile(with: Self.serialize(entries))
    }

    // MARK: The file

    /// The file's text; nil when there is no file. Throws when it is not safe to read (see the type's notes).
    private func readFile() throws -> String? {
        let descriptor = open(file.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let error = errno
            if error == ENOENT { return nil }
            if error == ELOOP { throw ignoring("it is a symbolic link") }
            throw CredentialStoreError("cannot read the saved logins in \(file.path): \(Self.systemError(error))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw CredentialStoreError("cannot read the saved logins in \(file.path): \(Self.systemError())")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw ignoring("it is not a regular file") }
        guard status.st_uid == geteuid() else {
            throw ignoring("it belongs to another user (uid \(status.st_uid)); remove it and log in again")
        }
        let permissions = status.st_mode & 0o777
        guard permissions & 0o077 == 0 else {
            throw ignoring("other users can read or change it (mode \(String(permissions, radix: 8))); "
                           + "if it is yours, make it private with `chmod 600 \(file.path)`")
        }
        guard status.st_size <= Self.maxFileSize else { throw ignoring("it is larger than \(Self.maxFileSize >> 20) MB") }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw CredentialStoreError("cannot read the saved logins in \(file.path): \(Self.systemError())")
            }
            data.append(contentsOf: buffer[0..<count])
            guard data.count <= Self.maxFileSize else { throw ignoring("it is larger than \(Self.maxFileSize >> 20) MB") }
        }
        return String(decoding: data, as: UTF8.self)
    }

    private func ignoring(_ reason: String) -> CredentialStoreError {
        CredentialStoreError("the saved logins in \(file.path) are ignored: \(reason)")
    }

    /// Replaces the file with `text`: a new 0600 file in the same folder, written in full and synced, renamed over it.
    private func replaceFile(with text: String) throws {
        do {
            try PrivateFile.replace(file, with: Array(text.utf8), durable: true)
        } catch {
            throw CredentialStoreError(error.description)
        }
    }

    // MARK: The format

    static func serialize(_ entries: [CredentialEntry]) -> String {
        var lines = [
            formatLine,
            "# Saved logins, written by Newsstand (newsstand login / logout); keep this file private (mode 600).",
            "# One login a line: HOST[:PORT] <tab> REALM <tab> USER <tab> PASSWORD; an empty REALM matches every realm.",
            "# Fields are percent-encoded where they hold %, a tab, a line break or another control character.",
        ]
        for entry in entries {
            lines.append([entry.host.description, entry.realm ?? "", entry.credentials.user, entry.credentials.password]
                .map(encode).joined(separator: "\t"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func parse(_ text: String) -> [CredentialEntry] {
        var entries: [CredentialEntry] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map { decode($0) }
            guard fields.count == 4, let host = CredentialHost(field: fields[0]), !fields[2].isEmpty else { continue }
            let entry = CredentialEntry(host: host, realm: fields[1], credentials: Credentials(user: fields[2], password: fields[3]))
            entries.removeAll { $0.host == entry.host && $0.realm == entry.realm }
            entries.append(entry)
        }
        return entries
    }

    /// `%`, and every control character (tab and line breaks among them), as `%XX`; nothing else.
    static func encode(_ field: String) -> String {
        var encoded = ""
        for scalar in field.unicodeScalars {
            if scalar == "%" || scalar.value < 0x20 || scalar.value == 0x7F {
                encoded += String(format: "%%%02X", scalar.value)
            } else {
                encoded.unicodeScalars.append(scalar)
            }
        }
        return encoded
    }

    static func decode(_ field: Substring) -> String {
        String(field).removingPercentEncoding ?? String(field)
    }

    private static func systemError(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }
}

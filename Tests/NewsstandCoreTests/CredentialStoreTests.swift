import Foundation
import XCTest
@testable import NewsstandCore

/// The credential store: one login per host, port and realm, in a private file replaced atomically.
final class CredentialStoreTests: XCTestCase {
    private func makeStore() throws -> CredentialStore {
        CredentialStore(paths: try TestSupport.paths(for: self))
    }

    private func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) ?? -1
    }

    private let alice = Credentials(user: "alice", password: "hunter2")
    private let bob = Credentials(user: "bob", password: "correct horse")

    func testSaveLookUpAndReplace() throws {
        let store = try makeStore()
        XCTAssertNil(store.credentials(forHost: "example.com", port: nil, realm: nil), "no file yet")
        try store.save(alice, for: CredentialHost(host: "example.com"))
        XCTAssertEqual(store.credentials(forHost: "example.com", port: nil, realm: nil), alice)
        XCTAssertEqual(store.credentials(forHost: "EXAMPLE.com", port: nil, realm: "Library"), alice, "hosts without case; a realm-less login serves every realm")
        XCTAssertNil(store.credentials(forHost: "other.example", port: nil, realm: nil))
        let replaced = Credentials(user: "alice", password: "new password")
        try store.save(replaced, for: CredentialHost(host: "Example.com"))
        XCTAssertEqual(store.credentials(forHost: "example.com", port: nil, realm: nil), replaced)
        XCTAssertEqual(try store.entries().count, 1, "saving again replaces")
        XCTAssertEqual(try store.logins(), [SavedLogin(host: CredentialHost(host: "example.com"), realm: nil, user: "alice")])
    }

    func testRealmsMatchExactlyOrFallBackToTheRealmlessLogin() throws {
        let store = try makeStore()
        let host = CredentialHost(host: "library.example")
        try store.save(alice, for: host, realm: "Staff")
        XCTAssertEqual(store.credentials(forHost: "library.example", port: nil, realm: "Staff"), alice)
        XCTAssertNil(store.credentials(forHost: "library.example", port: nil, realm: "Readers"), "a login for one realm does not serve another")
        XCTAssertEqual(store.credentials(forHost: "library.example", port: nil, realm: nil), alice, "before a challenge, the host's only login")
        try store.save(bob, for: host)
        XCTAssertEqual(store.credentials(forHost: "library.example", port: nil, realm: "Readers"), bob, "the realm-less login serves other realms")
        XCTAssertEqual(store.credentials(forHost: "library.example", port: nil, realm: "Staff"), alice, "the realm's own login wins")
        XCTAssertEqual(store.credentials(forHost: "library.example", port: nil, realm: nil), bob, "before a challenge, the realm-less login")
        XCTAssertEqual(try store.entries().count, 2, "one login per realm")
    }

    func testPortsAreKeptApart() throws {
        let store = try makeStore()
        try store.save(alice, for: CredentialHost(host: "127.0.0.1", port: 8080))
        try store.save(bob, for: CredentialHost(host: "::1", port: 8080))
        XCTAssertEqual(store.credentials(forHost: "127.0.0.1", port: 8080, realm: nil), alice)
        XCTAssertNil(store.credentials(forHost: "127.0.0.1", port: nil, realm: nil), "the default port is another server")
        XCTAssertNil(store.credentials(forHost: "127.0.0.1", port: 8081, realm: nil))
        XCTAssertEqual(store.credentials(forHost: "[::1]", port: 8080, realm: nil), bob, "IPv6 with or without brackets")
        XCTAssertEqual(store.credentials(forHost: "::1", port: 8080, realm: "any"), bob)
    }

    func testForgettingAHostForgetsEveryRealmAndPortOrOnePort() throws {
        let store = try makeStore()
        try store.save(alice, for: CredentialHost(host: "example.com"), realm: "A")
        try store.save(bob, for: CredentialHost(host: "example.com"), realm: "B")
        try store.save(alice, for: CredentialHost(host: "example.com", port: 8080))
        try store.save(alice, for: CredentialHost(host: "other.example"))
        XCTAssertEqual(try store.forget(CredentialHost(host: "example.com", port: 8080)).map(\.user), ["alice"])
        XCTAssertEqual(try store.entries().count, 3)
        XCTAssertEqual(Set(try store.forget(host: "EXAMPLE.COM").compactMap(\.realm)), ["A", "B"])
        XCTAssertEqual(try store.logins().map(\.host), [CredentialHost(host: "other.example")])
        XCTAssertEqual(try store.forget(host: "example.com"), [], "nothing left to forget")
    }

    func testFieldsWithTabsLineBreaksAndPercentSignsRoundTrip() throws {
        let store = try makeStore()
        let odd = Credentials(user: "ann\tmarie %41", password: "line\nbreak\r\t%09 ünï 😀 \u{7F}")
        try store.save(odd, for: CredentialHost(host: "::1", port: 9000), realm: "Realm\twith tab")
        let reread = CredentialStore(file: store.file)
        XCTAssertEqual(reread.credentials(forHost: "::1", port: 9000, realm: "Realm\twith tab"), odd)
        let text = try String(contentsOf: store.file, encoding: .utf8)
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        XCTAssertEqual(lines, ["[::1]:9000\tRealm%09with tab\tann%09marie %2541\tline%0Abreak%0D%09%2509 ünï 😀 %7F"])
        XCTAssertTrue(text.hasPrefix(CredentialStore.formatLine + "\n"))
    }

    func testUnreadableLinesAreSkipped() throws {
        let store = try makeStore()
        let text = """
            \(CredentialStore.formatLine)
            example.com\t\talice\thunter2
            no tabs here
            bad host:99999\t\tx\ty
            \t\tnohost\tpw
            other.example\t\t\tno user

            """
        XCTAssertTrue(FileManager.default.createFile(atPath: store.file.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))
        XCTAssertEqual(try store.entries(), [CredentialEntry(host: CredentialHost(host: "example.com"), realm: nil, credentials: alice)])
    }

    func testEveryWriteMakesANewPrivateFileWhateverTheUmask() throws {
        let store = try makeStore()
        let previous = umask(0)
        defer { umask(previous) }
        try store.save(alice, for: CredentialHost(host: "example.com"))
        XCTAssertEqual(try mode(store.file), 0o600)
        let firstInode = try FileManager.default.attributesOfItem(atPath: store.file.path)[.systemFileNumber] as? Int
        try store.save(bob, for: CredentialHost(host: "example.com"), realm: "R")
        XCTAssertEqual(try mode(store.file), 0o600)
        let secondInode = try FileManager.default.attributesOfItem(atPath: store.file.path)[.systemFileNumber] as? Int
        XCTAssertNotEqual(firstInode, secondInode, "replaced by rename, never rewritten in place")
        try store.forget(host: "example.com")
        XCTAssertEqual(try mode(store.file), 0o600)
        let folder = try FileManager.default.contentsOfDirectory(atPath: store.file.deletingLastPathComponent().path)
        XCTAssertEqual(folder.filter { $0.contains("credentials") }.sorted(), ["credentials", "credentials.lock"], "no temporary file left: \(folder)")
        XCTAssertEqual(try mode(store.lockFile), 0o600)
    }

    func testAFileOthersCanReadIsIgnoredAndNeverOverwritten() throws {
        let store = try makeStore()
        try store.save(alice, for: CredentialHost(host: "example.com"))
        for unsafeMode in [0o644, 0o640, 0o604, 0o620] {
            XCTAssertEqual(chmod(store.file.path, mode_t(unsafeMode)), 0)
            let before = try Data(contentsOf: store.file)
            XCTAssertNil(store.credentials(forHost: "example.com", port: nil, realm: nil), "mode \(String(unsafeMode, radix: 8)): not read")
            let problem = try XCTUnwrap(store.problem())
            XCTAssertTrue(problem.contains("other users can read or change it (mode \(String(unsafeMode, radix: 8)))"), problem)
            XCTAssertTrue(problem.contains("chmod 600 \(store.file.path)"), problem)
            XCTAssertFalse(problem.contains("hunter2"))
            XCTAssertThrowsError(try store.logins())
            XCTAssertThrowsError(try store.save(bob, for: CredentialHost(host: "other.example")))
            XCTAssertThrowsError(try store.forget(host: "example.com"))
            XCTAssertEqual(try Data(contentsOf: store.file), before, "an unsafe file is left for the user to decide")
            XCTAssertEqual(try mode(store.file), unsafeMode)
        }
        XCTAssertEqual(chmod(store.file.path, 0o600), 0)
        XCTAssertNil(store.problem())
        XCTAssertEqual(store.credentials(forHost: "example.com", port: nil, realm: nil), alice, "private again, read again")
    }

    func testASymbolicLinkIsNotFollowed() throws {
        let store = try makeStore()
        let elsewhere = store.file.deletingLastPathComponent().appendingPathComponent("elsewhere")
        XCTAssertTrue(FileManager.default.createFile(atPath: elsewhere.path, contents: Data("example.com\t\talice\thunter2\n".utf8), attributes: [.posixPermissions: 0o600]))
        try FileManager.default.createSymbolicLink(at: store.file, withDestinationURL: elsewhere)
        XCTAssertNil(store.credentials(forHost: "example.com", port: nil, realm: nil))
        XCTAssertTrue(store.problem()?.contains("symbolic link") ?? false, store.problem() ?? "")
    }

    func testConcurrentSavesLoseNothing() throws {
        let store = try makeStore()
        DispatchQueue.concurrentPerform(iterations: 12) { index in
            let other = CredentialStore(file: store.file)   // as another process would: its own store, the same file
            do {
                try other.save(Credentials(user: "user\(index)", password: "pw\(index)"), for: CredentialHost(host: "host\(index).example"))
            } catch {
                XCTFail("\(error)")
            }
        }
        XCTAssertEqual(try store.entries().count, 12)
        XCTAssertEqual(store.credentials(forHost: "host7.example", port: nil, realm: nil), Credentials(user: "user7", password: "pw7"))
    }

    func testALoginInAURLMovesToTheStore() throws {
        let store = try makeStore()
        let plain = try store.takeLogin(from: "https://example.com/feed")
        XCTAssertEqual(plain.address, "https://example.com/feed")
        XCTAssertNil(plain.saved)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.file.path), "nothing to save, nothing written")
        let userOnly = try store.takeLogin(from: "https://alice@example.com/feed")
        XCTAssertEqual(userOnly.address, "https://example.com/feed")
        XCTAssertNil(userOnly.saved)
        let moved = try store.takeLogin(from: "http://alice:hunter%32@127.0.0.1:8080/feed")
        XCTAssertEqual(moved.address, "http://127.0.0.1:8080/feed")
        XCTAssertEqual(moved.saved, SavedLogin(host: CredentialHost(host: "127.0.0.1", port: 8080), realm: nil, user: "alice"))
        XCTAssertEqual(store.credentials(forHost: "127.0.0.1", port: 8080, realm: "whatever"), alice)
    }

    func testSessionLoginsComeBeforeTheStoresAndLastOnlyInMemory() throws {
        let store = try makeStore()
        try store.save(alice, for: CredentialHost(host: "example.com"))
        let session = SessionCredentials(over: store)
        XCTAssertEqual(session.credentials(forHost: "example.com", port: nil, realm: nil), alice, "the store's, underneath")
        session.remember(bob, for: CredentialHost(host: "example.com"))
        XCTAssertEqual(session.credentials(forHost: "example.com", port: nil, realm: "R"), bob)
        session.remember(bob, for: CredentialHost(host: "other.example", port: 8443), realm: "R")
        XCTAssertEqual(session.credentials(forHost: "other.example", port: 8443, realm: "R"), bob)
        XCTAssertNil(store.credentials(forHost: "other.example", port: 8443, realm: "R"), "never written")
        session.forget(host: "example.com")
        XCTAssertEqual(session.credentials(forHost: "example.com", port: nil, realm: nil), alice)
    }
}

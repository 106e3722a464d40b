import Foundation
import LocalHTTPServer
import XCTest
@testable import NewsstandCore

/// A feed URL with `user:password@` is accepted once: the login moves to the credential store and the library
/// keeps the URL without it, whichever way the URL comes in.
final class LoginInFeedURLTests: XCTestCase {
    private let alice = Credentials(user: "alice", password: "hunter2")

    func testSubscriptionURLsNeverKeepALogin() throws {
        XCTAssertEqual(SubscriptionURL.parse("https://alice:secret@example.com/feed")?.absoluteString, "https://example.com/feed")
        XCTAssertEqual(SubscriptionURL.parse("http://bob@127.0.0.1:8080/x.plist")?.absoluteString, "http://127.0.0.1:8080/x.plist")
        XCTAssertNil(SubscriptionURL.parse("ftp://alice:secret@example.com/feed"))
        XCTAssertEqual(SubscriptionURL.parse("/tmp/a@b/feed.xml")?.path, "/tmp/a@b/feed.xml")
    }

    func testImportingOPMLMovesLoginsOutOfTheFeedURLs() throws {
        let (library, paths) = try TestSupport.store(for: self)
        let credentials = CredentialStore(paths: paths)
        let server = try TestSupport.server(for: self, root: TestFiles.sampleLibrary)
        let port = try XCTUnwrap(server.url(for: "catalog.plist").port)
        let withLogin = try XCTUnwrap(URL(string: "http://alice:hunter2@127.0.0.1:\(port)/catalog.plist"))
        let document = OPMLDocument(outlines: [.init(title: "Sample", feedURL: withLogin)])
        let result = try OPMLImport.run(document, store: library, credentials: credentials)
        XCTAssertEqual(result.added, 1, "\(result.failures)")
        XCTAssertEqual(try library.publications().map(\.feedURL.absoluteString), ["http://127.0.0.1:\(port)/catalog.plist"])
        XCTAssertEqual(credentials.credentials(forHost: "127.0.0.1", port: port, realm: nil), alice)
        XCTAssertFalse(try OPMLImport.export(store: library).xml().contains("hunter2"))
        XCTAssertEqual(try OPMLImport.run(document, store: library, credentials: credentials).alreadySubscribed, 1, "the same feed, login or not")
    }

    func testTheLibraryNeverStoresALoginInAFeedURL() throws {
        let (library, _) = try TestSupport.store(for: self)
        let publication = try library.addPublication(title: "Guarded", feedURL: URL(string: "https://alice:hunter2@example.com/feed")!)
        XCTAssertEqual(publication.feedURL.absoluteString, "https://example.com/feed")
        XCTAssertEqual(try library.publications().map(\.feedURL.absoluteString), ["https://example.com/feed"])
    }

    /// A library from before the credential store kept feed URLs as typed: opening it moves their logins out, once.
    func testLoginsKeptInFeedURLsByAnOlderLibraryMoveToTheStoreOnce() throws {
        let (library, paths) = try TestSupport.store(for: self)
        let credentials = CredentialStore(paths: paths)
        let guarded = try library.addPublication(title: "Guarded", feedURL: URL(string: "https://example.com/feed")!)
        let plain = try library.addPublication(title: "Plain", feedURL: URL(string: "https://example.org/feed")!)
        let named = try library.addPublication(title: "Named", feedURL: URL(string: "https://example.net/feed")!)
        // As an older library stored them.
        try library.database.query("UPDATE publications SET feed_url = 'https://alice:hunter2@example.com:8443/feed' WHERE id = ?", [.integer(guarded.id)])
        try library.database.query("UPDATE publications SET feed_url = 'https://bob@example.net/feed' WHERE id = ?", [.integer(named.id)])
        try library.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        XCTAssertTrue(try Self.bytes(of: paths).contains("hunter2"), "the test starts from a library holding the password")

        XCTAssertEqual(try FeedURLLoginMigration.run(store: library, credentials: credentials), [])
        let urls = Dictionary(uniqueKeysWithValues: try library.publications().map { ($0.id, $0.feedURL.absoluteString) })
        XCTAssertEqual(urls, [guarded.id: "https://example.com:8443/feed", plain.id: "https://example.org/feed", named.id: "https://example.net/feed"])
        XCTAssertEqual(credentials.credentials(forHost: "example.com", port: 8443, realm: nil), alice)
        XCTAssertEqual(try credentials.logins().map(\.user), ["alice"], "a user without a password is dropped, not saved")
        XCTAssertFalse(try Self.bytes(of: paths).contains("hunter2"), "the old text is gone from the database files")

        // Once: a login put back by hand later is not touched again.
        try library.database.query("UPDATE publications SET feed_url = 'https://carol:pw@example.org/feed' WHERE id = ?", [.integer(plain.id)])
        XCTAssertEqual(try FeedURLLoginMigration.run(store: library, credentials: credentials), [])
        XCTAssertEqual(try library.publication(id: plain.id)?.feedURL.absoluteString, "https://carol:pw@example.org/feed")
    }

    func testALoginThatCannotBeSavedIsStillRemovedFromTheLibraryAndTheUserIsTold() throws {
        let (library, paths) = try TestSupport.store(for: self)
        let credentials = CredentialStore(paths: paths)
        try credentials.save(alice, for: CredentialHost(host: "elsewhere.example"))
        XCTAssertEqual(chmod(credentials.file.path, 0o644), 0, "a store others can read is refused")
        let guarded = try library.addPublication(title: "Guarded", feedURL: URL(string: "https://example.com/feed")!)
        try library.database.query("UPDATE publications SET feed_url = 'https://alice:s3cret@example.com/feed' WHERE id = ?", [.integer(guarded.id)])
        let warnings = try FeedURLLoginMigration.run(store: library, credentials: credentials)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].hasPrefix("the login kept in the feed URL of Guarded could not be saved ("), warnings[0])
        XCTAssertTrue(warnings[0].hasSuffix("give it again with `newsstand login https://example.com/feed`"), warnings[0])
        XCTAssertFalse(warnings[0].contains("s3cret"))
        XCTAssertEqual(try library.publication(id: guarded.id)?.feedURL.absoluteString, "https://example.com/feed")
        XCTAssertFalse(try Self.bytes(of: paths).contains("s3cret"))
    }

    /// The database file and its write-ahead log, as ASCII text (other bytes become U+FFFD).
    private static func bytes(of paths: LibraryPaths) throws -> String {
        let files = [paths.databaseFile, URL(fileURLWithPath: paths.databaseFile.path + "-wal")]
        return try files.filter { FileManager.default.fileExists(atPath: $0.path) }
            .map { String(decoding: try Data(contentsOf: $0), as: Unicode.ASCII.self) }.joined()
    }

    func testAFeedWhoseLoginCannotBeSavedFailsWithoutShowingIt() throws {
        let (library, paths) = try TestSupport.store(for: self)
        let credentials = CredentialStore(paths: paths)
        try credentials.save(alice, for: CredentialHost(host: "elsewhere.example"))
        XCTAssertEqual(chmod(credentials.file.path, 0o644), 0)
        let feed = TestFiles.sampleLibrary.appendingPathComponent("catalog.plist")
        let withLogin = try XCTUnwrap(URL(string: "file://bob:s3cret@localhost" + feed.path))
        let result = try OPMLImport.run(OPMLDocument(outlines: [.init(title: "Sample", feedURL: withLogin)]), store: library, credentials: credentials)
        XCTAssertEqual(result.added, 0)
        XCTAssertEqual(result.failures.count, 1)
        XCTAssertTrue(result.failures[0].hasPrefix("Sample (file://localhost\(feed.path)): its login could not be saved: "), result.failures[0])
        XCTAssertFalse(result.failures[0].contains("s3cret"))
        XCTAssertEqual(try library.publications(), [])
    }
}

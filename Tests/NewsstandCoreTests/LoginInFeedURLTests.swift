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

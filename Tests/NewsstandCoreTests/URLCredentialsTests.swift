import Foundation
import XCTest
@testable import NewsstandCore

/// Splitting the login out of a URL (`user:password@`), and naming the server a login is for.
final class URLCredentialsTests: XCTestCase {
    func testSplitsUserAndPasswordPercentDecodedAndKeepsTheRestAsItWas() {
        let parts = URLCredentials.split("  https://al%20ice:s%40cr%3At%2Fx@Example.com:8443/feed%20x?a=1&b=c@d#top \n")
        XCTAssertEqual(parts.address, "https://Example.com:8443/feed%20x?a=1&b=c@d#top")
        XCTAssertEqual(parts.user, "al ice")
        XCTAssertEqual(parts.password, "s@cr:t/x")
        XCTAssertEqual(parts.credentials, Credentials(user: "al ice", password: "s@cr:t/x"))
        XCTAssertTrue(parts.hadUserInformation)
    }

    func testAUserWithoutAPasswordIsRemovedButGivesNoCredentials() {
        let parts = URLCredentials.split("https://alice@example.com/feed")
        XCTAssertEqual(parts.address, "https://example.com/feed")
        XCTAssertEqual(parts.user, "alice")
        XCTAssertNil(parts.password)
        XCTAssertNil(parts.credentials)
        let emptyPassword = URLCredentials.split("https://alice:@example.com/feed")
        XCTAssertEqual(emptyPassword.address, "https://example.com/feed")
        XCTAssertEqual(emptyPassword.password, "")
        XCTAssertNil(emptyPassword.credentials, "an empty password is no login")
        XCTAssertEqual(URLCredentials.split("https://@example.com/").address, "https://example.com/")
    }

    func testIPv6HostsKeepTheirBracketsAndPort() throws {
        let parts = URLCredentials.split("http://bob:pa%3Ass@[::1]:8080/feed.xml")
        XCTAssertEqual(parts.address, "http://[::1]:8080/feed.xml")
        XCTAssertEqual(parts.credentials, Credentials(user: "bob", password: "pa:ss"))
        let host = try XCTUnwrap(CredentialHost(parts.address))
        XCTAssertEqual(host, CredentialHost(host: "::1", port: 8080))
        XCTAssertEqual(host.description, "[::1]:8080")
        XCTAssertEqual(URLCredentials.split("http://[fe80::1%25eth0]/x").address, "http://[fe80::1%25eth0]/x", "no user information")
    }

    func testTheLastAtOfTheAuthoritySeparatesAnUnencodedAtInThePassword() {
        let parts = URLCredentials.split("https://alice:p@ss@example.com/a@b")
        XCTAssertEqual(parts.address, "https://example.com/a@b")
        XCTAssertEqual(parts.password, "p@ss")
    }

    func testAnAtOutsideTheAuthorityIsNotALogin() {
        for text in ["https://example.com/a@b?c=d@e#f@g", "https://example.com?x=a:b@c", "/tmp/a:b@c/feed.xml", "feeds/x@y", "mailto:alice@example.com"] {
            let parts = URLCredentials.split(text)
            XCTAssertEqual(parts.address, text)
            XCTAssertFalse(parts.hadUserInformation, text)
            XCTAssertNil(parts.user, text)
        }
    }

    func testDescriptionsNeverShowThePassword() {
        let parts = URLCredentials.split("https://alice:hunter2@example.com/")
        XCTAssertEqual("\(parts)", "https://example.com/ (user alice, password hidden)")
        XCTAssertFalse(String(reflecting: parts).contains("hunter2"))
        XCTAssertFalse("\(Credentials(user: "alice", password: "hunter2"))".contains("hunter2"))
        XCTAssertFalse(String(reflecting: Credentials(user: "alice", password: "hunter2")).contains("hunter2"))
        let entry = CredentialEntry(host: CredentialHost(host: "example.com"), realm: "R", credentials: Credentials(user: "alice", password: "hunter2"))
        XCTAssertEqual("\(entry)", "alice at example.com (realm “R”)")
    }

    func testSplittingAURLGivesTheURLWithoutItsLogin() throws {
        let url = try XCTUnwrap(URL(string: "https://alice:s%40cret@example.com/feed.xml"))
        let (clean, credentials) = URLCredentials.split(url)
        XCTAssertEqual(clean.absoluteString, "https://example.com/feed.xml")
        XCTAssertEqual(credentials, Credentials(user: "alice", password: "s@cret"))
        let plain = try XCTUnwrap(URL(string: "https://example.com/feed.xml"))
        XCTAssertEqual(URLCredentials.split(plain).url, plain)
        XCTAssertNil(URLCredentials.split(plain).credentials)
    }

    func testTheTypedPasswordIsMaskedCharacterForCharacter() {
        let cases = [
            ("https://alice:secret@example.com/feed", "https://alice:••••••@example.com/feed"),
            ("https://alice:sec", "https://alice:•••"),                       // typing: no @ yet
            ("https://alice:p@ss@example.com", "https://alice:••••@example.com"),
            ("https://alice@example.com/", "https://alice@example.com/"),
            ("https://example.com:8080/feed", "https://example.com:8080/feed"),
            ("http://127.0.0.1:80", "http://127.0.0.1:80"),                    // digits read as a port
            ("http://[::1]:8080/x", "http://[::1]:8080/x"),
            ("http://bob:pw@[::1]:8080/x", "http://bob:••@[::1]:8080/x"),
            ("https://example.com/a:b@c", "https://example.com/a:b@c"),
            ("~/feeds/x.xml", "~/feeds/x.xml"),
            ("https://al:ïé😀@h/", "https://al:•••@h/"),
        ]
        for (typed, shown) in cases {
            let masked = URLCredentials.maskingPassword(in: typed)
            XCTAssertEqual(masked, shown, typed)
            XCTAssertEqual(masked.count, typed.count, typed)
        }
    }

    func testServersAreReadFromURLsAndFromWhatPeopleType() {
        let cases: [(String, CredentialHost?)] = [
            ("https://Example.COM:443/feed", CredentialHost(host: "example.com")),
            ("http://example.com:80/", CredentialHost(host: "example.com")),
            ("https://example.com:80/", CredentialHost(host: "example.com", port: 80)),
            ("http://example.com:8080", CredentialHost(host: "example.com", port: 8080)),
            ("https://alice:pw@example.com/x", CredentialHost(host: "example.com")),
            ("example.com", CredentialHost(host: "example.com")),
            ("example.com:8080", CredentialHost(host: "example.com", port: 8080)),
            ("example.com:443", CredentialHost(host: "example.com")),
            ("[::1]:8080", CredentialHost(host: "::1", port: 8080)),
            ("[::1]", CredentialHost(host: "::1")),
            ("::1", CredentialHost(host: "::1")),
            ("http://[2001:DB8::1]:8080/", CredentialHost(host: "2001:db8::1", port: 8080)),
            ("", nil),
            ("example.com:99999", nil),
            ("example.com:http", nil),
            ("https:///feed", nil),
            ("[::1", nil),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(CredentialHost(text), expected, text)
        }
        XCTAssertEqual(CredentialHost(url: URL(string: "http://u:p@[::1]:8080/feed")!), CredentialHost(host: "::1", port: 8080))
        XCTAssertEqual(CredentialHost(host: "[::1]", port: 443).description, "[::1]:443")
    }
}

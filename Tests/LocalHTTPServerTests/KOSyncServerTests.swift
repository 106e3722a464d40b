import Foundation
import XCTest
@testable import LocalHTTPServer
import Synchronization

/// The test kosync server answers as the protocol's reference server does (SPEC §3.3, §5, §6), seen on the wire.
final class KOSyncServerTests: XCTestCase {
    private let accept = "application/vnd.koreader.v1+json"
    private let key = "5f4dcc3b5aa765d61d8327deb882cf99"

    private func makeKOSync() throws -> KOSyncServer {
        let server = KOSyncServer()
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    private func call(_ server: KOSyncServer, _ method: String, _ target: String, body: String? = nil,
                      user: String? = "alice", key: String? = nil, accept: String? = "application/vnd.koreader.v1+json") throws -> (Int, [String: Any], RawResponse) {
        let fd = try RawHTTP.connect(port: server.http.port)
        defer { close(fd) }
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let accept { text += "Accept: \(accept)\r\n" }
        if let user { text += "x-auth-user: \(user)\r\n" }
        text += "x-auth-key: \(key ?? self.key)\r\n"
        if let body { text += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)" } else { text += "\r\n" }
        RawHTTP.send(fd, text)
        let response = try RawHTTP.parse(RawHTTP.readAll(fd))
        let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        return (response.status, object, response)
    }

    func testAcceptHeaderIsRequired() throws {
        let server = try makeKOSync()
        server.addUser("alice", key: key)
        var (status, body, _) = try call(server, "GET", "/users/auth", accept: nil)
        XCTAssertEqual(status, 412)
        XCTAssertEqual(body["code"] as? Int, 100)
        (status, body, _) = try call(server, "GET", "/users/auth", accept: "*/*")
        XCTAssertEqual(status, 412)
        XCTAssertEqual(body["code"] as? Int, 101)
        (status, body, _) = try call(server, "GET", "/users/auth", accept: "application/vnd.koreader.v2+json")
        XCTAssertEqual(status, 412)
        XCTAssertEqual(body["code"] as? Int, 102)
        (status, body, _) = try call(server, "GET", "/users/auth")
        XCTAssertEqual(status, 200)
        XCTAssertEqual(body["authorized"] as? String, "OK")
    }

    func testRegistration() throws {
        let server = try makeKOSync()
        var (status, body, response) = try call(server, "POST", "/users/create", body: #"{"username":"bob","password":"\#(key)"}"#, user: nil)
        XCTAssertEqual(status, 201)
        XCTAssertEqual(body["username"] as? String, "bob")
        XCTAssertEqual(response.headers["content-type"], "application/json")
        (status, body, _) = try call(server, "POST", "/users/create", body: #"{"username":"bob","password":"x"}"#, user: nil)
        XCTAssertEqual(status, 402)
        XCTAssertEqual(body["code"] as? Int, 2002)
        (status, body, _) = try call(server, "POST", "/users/create", body: #"{"username":"a:b","password":"x"}"#, user: nil)
        XCTAssertEqual(status, 403)
        XCTAssertEqual(body["code"] as? Int, 2003)
        (status, body, _) = try call(server, "POST", "/users/create", body: "[1]", user: nil)
        XCTAssertEqual([status, body["code"] as? Int], [400, 104])
        (status, body, _) = try call(server, "POST", "/users/create", body: "{not json", user: nil)
        XCTAssertEqual([status, body["code"] as? Int], [400, 103])
        server.registrationEnabled = false
        (status, body, _) = try call(server, "POST", "/users/create", body: #"{"username":"carol","password":"x"}"#, user: nil)
        XCTAssertEqual(status, 402)
        XCTAssertEqual(body["code"] as? Int, 2005)
        // The account made works; the key is compared as sent.
        (status, _, _) = try call(server, "GET", "/users/auth", user: "bob")
        XCTAssertEqual(status, 200)
        (status, body, _) = try call(server, "GET", "/users/auth", user: "bob", key: key.uppercased())
        XCTAssertEqual([status, body["code"] as? Int], [401, 2001])
    }

    func testProgressIsLastWriteWinsStampedInSecondsAndPerUser() throws {
        let server = try makeKOSync()
        server.addUser("alice", key: key)
        server.addUser("eve", key: key)
        let clock = Clock(1_790_000_000)
        server.now = { clock.value }
        let document = "59d481d168cca6267322f150c5f6a2a3"
        var (status, body, _) = try call(server, "GET", "/syncs/progress/\(document)")
        XCTAssertEqual(status, 200)
        XCTAssertTrue(body.isEmpty, "an unknown document is {}: \(body)")

        (status, body, _) = try call(server, "PUT", "/syncs/progress", body: #"{"document":"\#(document)","progress":"/body/DocFragment[11]/body/div/p[7]/text().123","percentage":0.42,"device":"Kobo","device_id":"K1"}"#)
        XCTAssertEqual(status, 200)
        XCTAssertEqual(body["timestamp"] as? Int, 1_790_000_000)
        XCTAssertEqual(Set(body.keys), ["document", "timestamp"])
        clock.value += 5
        (status, _, _) = try call(server, "PUT", "/syncs/progress", body: #"{"document":"\#(document)","progress":"12","percentage":0.1,"device":"laptop"}"#)
        XCTAssertEqual(status, 200)
        (status, body, _) = try call(server, "GET", "/syncs/progress/\(document)")
        XCTAssertEqual(status, 200)
        XCTAssertEqual(body["progress"] as? String, "12", "progress stays a string")
        XCTAssertEqual(body["percentage"] as? Double, 0.1, "a later, lower position wins")
        XCTAssertEqual(body["device"] as? String, "laptop")
        XCTAssertNil(body["device_id"], "not sent, not returned")
        XCTAssertEqual(body["timestamp"] as? Int, 1_790_000_005)
        (status, body, _) = try call(server, "GET", "/syncs/progress/\(document)", user: "eve")
        XCTAssertTrue(body.isEmpty, "another user's positions are not seen")
    }

    func testProgressFieldsAndAuthorisation() throws {
        let server = try makeKOSync()
        server.addUser("alice", key: key)
        var (status, body, _) = try call(server, "PUT", "/syncs/progress", body: #"{"document":"d1","progress":"1","percentage":0,"device":"x"}"#, key: "wrong")
        XCTAssertEqual([status, body["code"] as? Int], [401, 2001])
        (status, body, _) = try call(server, "GET", "/syncs/progress/d1", user: nil)
        XCTAssertEqual([status, body["code"] as? Int], [401, 2001])
        (status, body, _) = try call(server, "PUT", "/syncs/progress", body: #"{"progress":"1","percentage":0,"device":"x"}"#)
        XCTAssertEqual([status, body["code"] as? Int], [403, 2004])
        (status, body, _) = try call(server, "PUT", "/syncs/progress", body: #"{"document":"a:b","progress":"1","percentage":0,"device":"x"}"#)
        XCTAssertEqual([status, body["code"] as? Int], [403, 2004])
        (status, body, _) = try call(server, "PUT", "/syncs/progress", body: #"{"document":"d1","progress":"1","percentage":"x","device":"x"}"#)
        XCTAssertEqual([status, body["code"] as? Int], [403, 2003])
        (status, body, _) = try call(server, "PUT", "/syncs/progress", body: #"{"document":"d1","percentage":0,"device":"x"}"#)
        XCTAssertEqual([status, body["code"] as? Int], [403, 2003])
        (status, _, _) = try call(server, "PUT", "/syncs/progress", body: #"{"document":"d1","progress":"1","percentage":0,"device":"x"}"#)
        XCTAssertEqual(status, 200, "percentage 0 is a number")
    }

    /// Like the reference: an id outside [A-Za-z0-9_]+ is stored on PUT but no GET route reaches it (404, HTML).
    func testIdsOutsideTheRouteCannotBeReadBack() throws {
        let server = try makeKOSync()
        server.addUser("alice", key: key)
        var (status, _, response) = try call(server, "PUT", "/syncs/progress", body: #"{"document":"has-a-hyphen","progress":"1","percentage":0.5,"device":"x"}"#)
        XCTAssertEqual(status, 200)
        (status, _, response) = try call(server, "GET", "/syncs/progress/has-a-hyphen")
        XCTAssertEqual(status, 404)
        XCTAssertEqual(response.headers["content-type"], "text/html")
        (status, _, _) = try call(server, "GET", "/nowhere")
        XCTAssertEqual(status, 404)
        (status, _, _) = try call(server, "DELETE", "/syncs/progress")
        XCTAssertEqual(status, 404)
        let (healthStatus, health, _) = try call(server, "GET", "/healthcheck", user: nil)
        XCTAssertEqual(healthStatus, 200)
        XCTAssertEqual(health["state"] as? String, "OK")
    }

    func testFaults() throws {
        let server = try makeKOSync()
        server.addUser("alice", key: key)
        server.failure = 500
        var (status, _, _) = try call(server, "GET", "/users/auth")
        XCTAssertEqual(status, 500)
        server.failure = nil
        server.malformedBodies = true
        var response: RawResponse
        (status, _, response) = try call(server, "GET", "/users/auth")
        XCTAssertEqual(status, 200)
        XCTAssertNil(try? JSONSerialization.jsonObject(with: response.body))
        server.malformedBodies = false
        server.delay = 0.3
        let started = Date()
        (status, _, _) = try call(server, "GET", "/users/auth")
        XCTAssertEqual(status, 200)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.3)
    }
}

/// A clock a test moves.
private final class Clock: Sendable {
    private let seconds: Mutex<Int>
    init(_ seconds: Int) { self.seconds = Mutex(seconds) }
    var value: Int {
        get { seconds.withLock { $0 } }
        set { seconds.withLock { $0 = newValue } }
    }
}

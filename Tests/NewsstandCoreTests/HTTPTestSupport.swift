import Foundation
import XCTest
import LocalHTTPServer
@testable import NewsstandCore
import Synchronization

extension HTTPEvent {
    /// `.finished` or `.failed`.
    var isTerminal: Bool {
        switch self {
        case .finished, .failed: true
        default: false
        }
    }
}

/// What a transfer reported, in order, once it ended.
struct CompletedTransfer {
    let events: [HTTPEvent]

    var error: HTTPError? {
        if case .failed(let error)? = events.last { return error }
        return nil
    }

    var isFinished: Bool { events.last == .finished }

    var head: HTTPResponseHead? {
        for case .response(let head) in events { return head }
        return nil
    }
}

enum HTTPTestSupport {
    /// Starts `request` and waits for its end (failing the test, and cancelling, after `timeout`: no test hangs).
    static func run(_ client: HTTPClient, _ request: HTTPRequest, sink: any HTTPBodySink, timeout: TimeInterval = 20,
                    file: StaticString = #filePath, line: UInt = #line) -> CompletedTransfer {
        let log = EventLog<HTTPEvent>()
        let transfer = client.start(request, sink: sink) { log.append($0) }
        if !log.wait(timeout: timeout, until: { $0.contains(where: \.isTerminal) }) {
            XCTFail("the transfer did not end within \(timeout) s", file: file, line: line)
            transfer.cancel()
            log.wait(timeout: 5) { $0.contains(where: \.isTerminal) }
        }
        let events = log.all
        XCTAssertEqual(events.filter(\.isTerminal).count, 1, "exactly one end", file: file, line: line)
        XCTAssertEqual(events.last?.isTerminal, true, "nothing after the end", file: file, line: line)
        return CompletedTransfer(events: events)
    }

    /// A request that cannot hang a test: a 20 s deadline unless `limits` say less.
    static func request(_ url: URL, limits: HTTPLimits = HTTPLimits(), method: HTTPRequest.Method = .get,
                        headers: [String: String] = [:], isRateLimited: Bool = false) -> HTTPRequest {
        var limits = limits
        limits.deadline = min(limits.deadline ?? 20, 20)
        return HTTPRequest(url: url, method: method, headers: headers, limits: limits, isRateLimited: isRateLimited)
    }

    /// A client that reads no `.netrc` (an empty environment) unless one is given.
    static func client(credentials: (any CredentialSource)? = nil, netrc: URL? = nil, certificateAuthority: URL? = nil) -> HTTPClient {
        HTTPClient(configuration: HTTPClient.Configuration(credentials: credentials,
                                                           environment: netrc.map { ["NETRC": $0.path] } ?? [:],
                                                           certificateAuthorityFile: certificateAuthority?.path))
    }
}

/// Logins by host and realm, recording every question.
final class FixedCredentials: CredentialSource, Sendable {
    private let answers: [String?: Credentials]
    private let asked = Mutex<[(host: String, port: Int?, realm: String?)]>([])

    /// `answers[nil]` answers any realm; `answers["R"]` only realm R.
    init(_ answers: [String?: Credentials]) {
        self.answers = answers
    }

    func credentials(forHost host: String, port: Int?, realm: String?) -> Credentials? {
        asked.withLock { $0.append((host, port, realm)) }
        return answers[realm] ?? answers[nil]
    }

    var questions: [String] {
        asked.withLock { asked in asked.map { "\($0.host):\($0.port.map(String.init) ?? "-"):\($0.realm ?? "-")" } }
    }
}

extension LocalHTTPServer {
    /// The request log once it holds at least `count` requests (a server records a request after answering it,
    /// so a client can be done first), waiting at most 5 s.
    func log(atLeast count: Int) -> [RequestRecord] {
        let deadline = Date().addingTimeInterval(5)
        var log = requestLog
        while log.count < count && Date() < deadline {
            usleep(2_000)
            log = requestLog
        }
        return log
    }
}

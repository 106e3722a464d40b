import Foundation
import NewsstandCore
import NewsstandImaging
import NewsstandUI

/// The messages an `EffectRunner` sent in a test, in order, safe to read from the test's thread.
final class MessageInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [Message] = []

    func append(_ message: Message) { lock.withLock { messages.append(message) } }

    /// Every message so far.
    var all: [Message] { lock.withLock { messages } }

    /// What the status line says of the runtime's reports: sentences sent as they are, and those the interface
    /// writes for a `RuntimeReport`.
    var reports: [StatusMessage] {
        lock.withLock {
            messages.compactMap {
                switch $0 {
                case .reported(let status): status
                case .happened(let report): report.statusMessage
                default: nil
                }
            }
        }
    }

    /// The runtime's reports as facts.
    var happenings: [RuntimeReport] {
        lock.withLock { messages.compactMap { if case .happened(let report) = $0 { report } else { nil } } }
    }

    var subscriptions: [Result<String, ReaderFailure>] {
        lock.withLock { messages.compactMap { if case .subscriptionAdded(let result) = $0 { result } else { nil } } }
    }

    var logins: [(host: String, realm: String?, retry: Effect)] {
        lock.withLock { messages.compactMap { if case .loginRequired(let host, let realm, let retry) = $0 { (host, realm, retry) } else { nil } } }
    }

    var feeds: [(URL, Result<Feed, ReaderFailure>)] {
        lock.withLock { messages.compactMap { if case .feedLoaded(let url, let result) = $0 { (url, result) } else { nil } } }
    }

    /// Streamed pages' answers: a result when fetched, nil when skipped.
    var streamedPages: [(StreamedPageRequest, Result<TextArt, ReaderFailure>?)] {
        lock.withLock {
            messages.compactMap {
                switch $0 {
                case .streamedPageFetched(let request, let result): (request, result)
                case .streamedPageSkipped(let request): (request, nil)
                default: nil
                }
            }
        }
    }

    /// Links and media a program could not open: the failure said.
    var linkFailures: [String] {
        lock.withLock { messages.compactMap { if case .linkOpened(_, let failure?) = $0 { failure } else { nil } } }
    }

    var pictures: [(PictureRequest, Result<TextArt, ReaderFailure>)] {
        lock.withLock { messages.compactMap { if case .articlePictureRendered(let request, let result) = $0 { (request, result) } else { nil } } }
    }

    var refreshes: [[PublicationRefresher.Outcome]] {
        lock.withLock { messages.compactMap { if case .publicationsRefreshed(let outcomes) = $0 { outcomes } else { nil } } }
    }
}

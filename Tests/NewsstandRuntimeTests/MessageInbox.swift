import Foundation
import NewsstandCore
import NewsstandImaging
import NewsstandUI
import Synchronization

/// The messages an `EffectRunner` sent in a test, in order, safe to read from the test's thread.
final class MessageInbox: Sendable {
    private let received = Mutex<[Message]>([])

    func append(_ message: Message) { received.withLock { $0.append(message) } }

    /// Every message so far (a copy).
    private var messages: [Message] { received.withLock { $0 } }

    /// Every message so far.
    var all: [Message] { messages }

    /// What the status line says of the runtime's reports: sentences sent as they are, and those the interface
    /// writes for a `RuntimeReport`.
    var reports: [StatusMessage] {
        messages.compactMap {
            switch $0 {
            case .reported(let status): status
            case .happened(let report): report.statusMessage
            default: nil
            }
        }
    }

    /// The runtime's reports as facts.
    var happenings: [RuntimeReport] {
        messages.compactMap { if case .happened(let report) = $0 { report } else { nil } }
    }

    var subscriptions: [Result<String, ReaderFailure>] {
        messages.compactMap { if case .subscriptionAdded(let result) = $0 { result } else { nil } }
    }

    var logins: [(host: String, realm: String?, retry: Effect)] {
        messages.compactMap { if case .loginRequired(let host, let realm, let retry) = $0 { (host, realm, retry) } else { nil } }
    }

    var feeds: [(URL, Result<Feed, ReaderFailure>)] {
        messages.compactMap { if case .feedLoaded(let url, let result) = $0 { (url, result) } else { nil } }
    }

    /// Streamed pages' answers: a result when fetched, nil when skipped.
    var streamedPages: [(StreamedPageRequest, Result<TextArt, ReaderFailure>?)] {
        messages.compactMap {
            switch $0 {
            case .streamedPageFetched(let request, let result): (request, result)
            case .streamedPageSkipped(let request): (request, nil)
            default: nil
            }
        }
    }

    /// Links and media a program could not open: the failure said.
    var linkFailures: [String] {
        messages.compactMap { if case .linkOpened(_, let failure?) = $0 { failure } else { nil } }
    }

    var pictures: [(PictureRequest, Result<TextArt, ReaderFailure>)] {
        messages.compactMap { if case .articlePictureRendered(let request, let result) = $0 { (request, result) } else { nil } }
    }

    var refreshes: [[PublicationRefresher.Outcome]] {
        messages.compactMap { if case .publicationsRefreshed(let outcomes) = $0 { outcomes } else { nil } }
    }
}

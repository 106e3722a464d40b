import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandUI
import Synchronization

/// Progress sync while the shelf runs, on its own queue so reading never waits for the server: on opening an issue
/// its place is fetched and, from another device, offered (`.progressSyncOffered`); each place saved is kept to send
/// (in the library, so it survives a crash or a server that is down) and sent on leaving an article, on closing the
/// issue, on quitting, and at most every 30 seconds while reading. Failures are said once, in plain words; a 401
/// stops sync for the session and asks for the login again.
final class ProgressSyncWork: Sendable {
    static let pushInterval: TimeInterval = 30

    let service: ProgressSyncService
    private let send: @Sendable (Message) -> Void
    /// The network: pulls and pushes, which may wait on a slow server.
    private let queue = DispatchQueue(label: "newsstand.progress-sync", qos: .utility)
    /// Places mapped and kept in the library's outbox, never behind the network (so quitting keeps the last one).
    private let local = DispatchQueue(label: "newsstand.progress-sync.local", qos: .utility)
    /// Books of the issues opened; used on `local`.
    private let openBooks = Mutex<[Int64: EPUBBook]>([:])
    /// What the pushes remember; used on `queue`.
    private let pushes = Mutex(Pushes())

    private struct Pushes {
        var lastPush: [Int64: Date] = [:]
        var lastArticle: [Int64: Int] = [:]
        var scheduled: Set<Int64> = []
        var isRefused = false
        var lastProblem: RuntimeReport?
    }

    // Each used on one queue only (above), so reading and writing them in steps is safe.
    private var books: [Int64: EPUBBook] {
        get { openBooks.withLock { $0 } }
        set { openBooks.withLock { $0 = newValue } }
    }
    private var lastPush: [Int64: Date] {
        get { pushes.withLock { $0.lastPush } }
        set { pushes.withLock { $0.lastPush = newValue } }
    }
    private var lastArticle: [Int64: Int] {
        get { pushes.withLock { $0.lastArticle } }
        set { pushes.withLock { $0.lastArticle = newValue } }
    }
    private var scheduled: Set<Int64> {
        get { pushes.withLock { $0.scheduled } }
        set { pushes.withLock { $0.scheduled = newValue } }
    }
    private var isRefused: Bool {
        get { pushes.withLock { $0.isRefused } }
        set { pushes.withLock { $0.isRefused = newValue } }
    }
    private var lastProblem: RuntimeReport? {
        get { pushes.withLock { $0.lastProblem } }
        set { pushes.withLock { $0.lastProblem = newValue } }
    }

    init(service: ProgressSyncService, send: @escaping @Sendable (Message) -> Void) {
        self.service = service
        self.send = send
    }

    /// The issue opened with `book`: fetch its place from the server and offer it when another device is elsewhere.
    func opened(issueID: Int64, book: EPUBBook) {
        local.async { self.books[issueID] = book }
        queue.async {
            guard !self.isRefused, let issue = try? self.service.store.issue(id: issueID) else { return }
            do {
                let local = try? self.service.localPosition(of: issue, book: book)
                if local != nil { self.lastArticle[issueID] = (try? self.service.store.readingPosition(issueID: issueID))??.articleIndex }
                guard let remote = try self.service.pull(issue, book: book) else { return self.succeeded() }
                self.succeeded()
                let decision = self.service.decide(remote, local: local)
                guard decision != .ignore else { return }
                self.send(.progressSyncOffered(ProgressSyncOffer(issueID: issueID, position: remote.position, device: remote.device,
                                                                 percentage: remote.percentage, articleTitle: remote.articleTitle,
                                                                 jump: decision == .jump)))
            } catch {
                self.failed(error)
            }
            self.sendQueued()
        }
    }

    /// A place was saved: keep it to send; send now when it is in another article than the last, else within 30 s.
    func saved(issueID: Int64, position: ReadingPosition) {
        local.async {
            guard let issue = try? self.service.store.issue(id: issueID) else { return }
            let book = self.books[issueID] ?? (try? self.service.book(of: issue))
            guard let book else { return }
            self.books[issueID] = book
            do {
                guard let place = try self.service.localPosition(of: issue, book: book, at: position) else { return }
                try self.service.queue(place, issueID: issueID, at: position)
            } catch {
                return self.queue.async { self.failed(error) }
            }
            self.queue.async { self.schedulePush(issueID: issueID, articleIndex: position.articleIndex) }
        }
    }

    /// On `queue`: sends now when the place is in another article than the last, else within 30 seconds.
    private func schedulePush(issueID: Int64, articleIndex: Int) {
        let changedArticle = lastArticle[issueID].map { $0 != articleIndex } ?? false
        lastArticle[issueID] = articleIndex
        let since = lastPush[issueID].map { Date().timeIntervalSince($0) } ?? .infinity
        if changedArticle || since >= Self.pushInterval {
            push(issueID)
        } else if !scheduled.contains(issueID) {
            scheduled.insert(issueID)
            queue.asyncAfter(deadline: .now() + (Self.pushInterval - since)) {
                self.scheduled.remove(issueID)
                self.push(issueID)
            }
        }
    }

    /// Sends the issue's queued place now (closing the issue).
    func pushNow(issueID: Int64) {
        local.async { self.queue.async { self.push(issueID) } }
    }

    /// A login typed in the program after the server refused one: checked with the server, then used (and saved
    /// when `remember`); sync goes on from the places kept meanwhile. A refused one is said, and sync stays off.
    func logIn(_ login: Credentials, remember: Bool) {
        queue.async {
            do {
                try self.service.logIn(user: login.user, password: login.password, remember: remember)
            } catch let failure as KOSyncClient.Failure {
                self.send(.happened(.progressSyncLoginRefused(user: login.user, reason: "\(failure)")))
                return
            } catch {
                self.isRefused = false
                self.send(.happened(.progressSyncLoginNotSaved(user: login.user, reason: "\(error)")))
                return self.sendQueued()
            }
            self.isRefused = false
            self.lastProblem = nil
            self.send(.happened(.progressSyncLoggedIn(user: login.user, saved: remember)))
            self.sendQueued()
        }
    }

    /// Sends the places kept while the login was refused (after a new one was given).
    func resume() {
        queue.async { self.sendQueued() }
    }

    /// Keeps the last places in the outbox (waiting for that: it reads no network), then sends what is queued,
    /// waiting at most `timeout` seconds for the server (quitting); what is not sent stays queued.
    func finish(timeout: TimeInterval) {
        local.sync {}
        let done = DispatchSemaphore(value: 0)
        queue.async {
            self.sendQueued()
            done.signal()
        }
        _ = done.wait(timeout: .now() + timeout)
    }

    // MARK: On the queue

    private func push(_ issueID: Int64) {
        guard !isRefused else { return }
        lastPush[issueID] = Date()
        do {
            try service.sendQueued(only: issueID)
            succeeded()
        } catch {
            failed(error)
        }
    }

    private func sendQueued() {
        guard !isRefused else { return }
        do {
            if try service.sendQueued() > 0 { succeeded() }
        } catch {
            failed(error)
        }
    }

    private func succeeded() {
        if lastProblem != nil {
            lastProblem = nil
            send(.happened(.progressSyncWorksAgain))
        }
    }

    private func failed(_ error: Error) {
        if case .failed(.unauthorized)? = error as? ProgressSyncService.Problem {
            isRefused = true
            // Asked for again in the program (the login prompt; `newsstand login` does the same from a shell).
            guard let server = service.settings.server, let host = CredentialHost(url: server) else { return }
            send(.loginRequired(host: host.description, realm: CredentialEntry.progressSyncRealm, retry: .resumeProgressSync))
            return
        }
        let problem: RuntimeReport
        if case .failed(.unavailable(_, let detail))? = error as? ProgressSyncService.Problem {
            problem = .progressSyncUnavailable(detail: detail)
        } else {
            problem = .progressSyncFailed(reason: "\(error)")
        }
        guard problem != lastProblem else { return }
        lastProblem = problem
        send(.happened(problem))
    }
}

import Foundation
import NewsstandContent
import Synchronization

/// Progress sync for one library: the login and device, each issue's document id and position in kosync's terms, the
/// positions waiting to be sent (kept in the library until the server has them), and what to make of the server's.
/// Blocking (HTTP, reading issues): call it off the interface's thread.
public final class ProgressSyncService: Sendable {
    /// The realm a progress-sync login is saved under in the credential store: its password field holds the
    /// `x-auth-key` (the MD5 of the password), never the password, and it is never offered to other requests.
    public static let loginRealm = CredentialEntry.progressSyncRealm

    public let settings: ProgressSyncSettings
    public let store: LibraryStore
    let paths: LibraryPaths
    let credentials: CredentialStore
    /// A login given in the program after the server refused the saved one (its password is the key).
    private let sessionLogin = Mutex<Credentials?>(nil)
    let http: HTTPClient

    public init(settings: ProgressSyncSettings, store: LibraryStore, paths: LibraryPaths, credentials: CredentialStore,
                http: HTTPClient = .shared) {
        self.settings = settings
        self.store = store
        self.paths = paths
        self.credentials = credentials
        self.http = http
    }

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case off
        case noLogin(server: String)
        case noDocumentID(String)
        case failed(KOSyncClient.Failure)

        public var description: String {
            switch self {
            case .off: "progress sync is off (set progress-sync URL in the config)"
            case .noLogin(let server): "no login is saved for the progress sync server: newsstand login \(server) --user NAME"
            case .noDocumentID(let why): why
            case .failed(let failure): failure.description
            }
        }

        /// Whether the position is worth keeping to send later.
        public var isWorthRetrying: Bool {
            if case .failed(let failure) = self { return failure.isWorthRetrying }
            return false
        }
    }

    // MARK: Login and device

    /// The client with the login given in this session, else the saved one; throws `.off` or `.noLogin`.
    public func client() throws -> KOSyncClient {
        guard let server = settings.server else { throw Problem.off }
        guard let login = sessionLogin.withLock({ $0 }) ?? Self.savedLogin(for: server, in: credentials) else {
            throw Problem.noLogin(server: server.absoluteString)
        }
        return KOSyncClient(server: server, user: login.user, key: login.password, http: http)
    }

    /// Logs in with a password typed in the program: checks it with the server (`users/auth`), then uses it for the
    /// rest of the session and, when `remember`, saves it as `newsstand login` does (the key, never the password).
    /// Throws the server's refusal (`KOSyncClient.Failure`) or a failure to save.
    public func logIn(user: String, password: String, remember: Bool) throws {
        guard let server = settings.server, let host = CredentialHost(url: server) else { throw Problem.off }
        let login = Credentials(user: user, password: try KOSyncClient.key(forPassword: password))
        try KOSyncClient(server: server, user: login.user, key: login.password, http: http).authorize()
        sessionLogin.withLock { $0 = login }
        if remember { try credentials.save(login, for: host, realm: Self.loginRealm) }
    }

    /// The progress-sync login saved for `server` (its password is the x-auth-key).
    public static func savedLogin(for server: URL, in credentials: CredentialStore) -> Credentials? {
        guard let host = CredentialHost(url: server), let entries = try? credentials.entries() else { return nil }
        return entries.last { $0.host == host && $0.realm == loginRealm }?.credentials
    }

    /// This library's device id: made once (32 hex digits), kept in the library.
    public func deviceID() -> String {
        if let id = try? store.setting("progress_sync_device_id"), !id.isEmpty { return id }
        let id = UUID().uuidString.replacingOccurrences(of: "-", with: "")
        try? store.setSetting("progress_sync_device_id", to: id)
        return (try? store.setting("progress_sync_device_id")) ?? id
    }

    // MARK: Documents and positions

    /// The id the server knows the issue by, as `progress-sync-document` says.
    public func documentID(of issue: Issue) throws -> String {
        let identity = try store.downloadedFileIdentity(issueID: issue.id)
        switch settings.document {
        case .filename:
            let name = identity?.fileName ?? issue.contentURLs.first?.lastPathComponent ?? ""
            guard !name.isEmpty else { throw Problem.noDocumentID("\(issue.title) has no file name to sync by") }
            return try KOReaderDocumentID.fileNameMD5(name)
        case .binary:
            if let identity { return identity.partialMD5 }
            // A PDF is kept as downloaded: its id can still be taken.
            if let publication = try store.publication(id: issue.publicationID),
               let pdf = IssueContent.pdfFile(in: paths.folder(for: issue, of: publication)),
               let digest = try? KOReaderDocumentID.partialMD5(ofFile: pdf) {
                let identity = DownloadedFileIdentity(partialMD5: digest, fileName: pdf.lastPathComponent)
                try? store.setDownloadedFileIdentity(identity, issueID: issue.id)
                return digest
            }
            throw Problem.noDocumentID("\(issue.title) was downloaded by an older Newsstand, so its file's id is unknown: download it again to sync its place")
        }
    }

    /// The book of a downloaded issue.
    public func book(of issue: Issue) throws -> EPUBBook {
        guard let publication = try store.publication(id: issue.publicationID) else { throw DownloadError("the issue is gone") }
        return try IssueContent.openBook(folder: paths.folder(for: issue, of: publication))
    }

    /// Our position of an issue in kosync's terms (nil when it has none yet).
    public func localPosition(of issue: Issue, book: EPUBBook? = nil, at position: ReadingPosition? = nil) throws -> ProgressSyncPosition? {
        guard let position = try position ?? store.readingPosition(issueID: issue.id) else { return nil }
        let place = ProgressSyncPlace(book: try book ?? self.book(of: issue))
        let (progress, percentage) = place.progress(of: position)
        return ProgressSyncPosition(document: try documentID(of: issue), progress: progress, percentage: percentage,
                                    articleTitle: place.title(of: position))
    }

    // MARK: Sending

    /// Keeps `position` as the issue's position to send (replacing an unsent older one).
    public func queue(_ position: ProgressSyncPosition, issueID: Int64, at place: ReadingPosition? = nil) throws {
        try store.queueProgressPush(position, issueID: issueID, at: place)
    }

    /// Sends every queued position, oldest first; each one the server takes leaves the queue. Stops at a failure
    /// (a 401 is never tried again without a new login) and throws it; how many were sent otherwise.
    @discardableResult
    public func sendQueued(only issueID: Int64? = nil) throws -> Int {
        let queued = try store.queuedProgressPushes().filter { issueID == nil || $0.issueID == issueID }
        guard !queued.isEmpty else { return 0 }
        let client = try client()
        let device = settings.deviceName, id = deviceID()
        var sent = 0
        for (issueID, position) in queued {
            do {
                try client.push(position, device: device, deviceID: id)
            } catch let failure as KOSyncClient.Failure {
                throw Problem.failed(failure)
            }
            try store.clearQueuedProgressPush(issueID: issueID, ifStill: position)
            sent += 1
        }
        return sent
    }

    // MARK: Receiving

    /// What the server holds for an issue, in our terms.
    public struct Remote: Sendable, Equatable {
        public var position: ReadingPosition
        public var percentage: Double
        public var device: String
        public var articleTitle: String
        public var timestamp: Int?
        /// Written by this very device (same name and id): nothing to do.
        public var isOurs: Bool
        public var progress: String
    }

    /// The server's position for an issue; nil when it holds none.
    public func pull(_ issue: Issue, book: EPUBBook? = nil) throws -> Remote? {
        let client = try client()
        let document = try documentID(of: issue)
        let remote: KOSyncClient.RemotePosition?
        do {
            remote = try client.pull(document: document)
        } catch let failure as KOSyncClient.Failure {
            throw Problem.failed(failure)
        }
        guard let remote else { return nil }
        let place = ProgressSyncPlace(book: try book ?? self.book(of: issue))
        let position = place.position(progress: remote.progress, percentage: remote.percentage)
        return Remote(position: position, percentage: remote.percentage, device: remote.device, articleTitle: place.title(of: position),
                      timestamp: remote.timestamp, isOurs: remote.device == settings.deviceName && remote.deviceID == deviceID(),
                      progress: remote.progress)
    }

    /// What to do with the server's position, given ours: nothing (ours, the same place, or a direction set to
    /// ignore), ask, or go there.
    public enum Decision: Equatable, Sendable { case ignore, ask, jump }

    public func decide(_ remote: Remote, local: ProgressSyncPosition?) -> Decision {
        guard !remote.isOurs else { return .ignore }
        guard let local else { return settings.forward == .ignore ? .ignore : (settings.forward == .jump ? .jump : .ask) }
        if local.progress == remote.progress || KOSyncClient.rounded(local.percentage) == KOSyncClient.rounded(remote.percentage) { return .ignore }
        if remote.percentage > local.percentage {
            switch settings.forward {
            case .ask: return .ask
            case .jump: return .jump
            case .ignore: return .ignore
            }
        }
        return settings.backward == .ask ? .ask : .ignore
    }
}

extension ProgressSyncService {
    /// What syncing every downloaded issue's place did.
    public struct Summary: Sendable {
        public var sent = 0
        /// Issues another device is elsewhere in, more recently than our last move.
        public var elsewhere: [(issue: Issue, remote: Remote)] = []
        /// Why it stopped (a refused login, a server that is down…); what was not sent stays queued.
        public var problem: Problem?
    }

    /// For every downloaded issue with a place: pulls the server's; ours is queued when the server has none, has one
    /// this device wrote, or an older one; then every queued place is sent. (`newsstand sync`.)
    public func syncEveryIssue() -> Summary {
        var summary = Summary()
        do {
            _ = try client()
        } catch {
            summary.problem = error as? Problem
            return summary
        }
        let issues = ((try? store.allIssues()) ?? []).filter { $0.state == .available }
        let client = try? client()
        for issue in issues {
            guard let position = try? store.readingPosition(issueID: issue.id) else { continue }
            // Unchanged on both sides (our place is the one the server took from us, and still holds): nothing to
            // read from the issue.
            if let client, let sent = try? store.lastSentProgress(issueID: issue.id), sent.position == position,
               (try? documentID(of: issue)) == sent.document, (try? store.queuedProgressPush(issueID: issue.id)) == .some(nil) {
                do {
                    if try client.pull(document: sent.document)?.progress == sent.progress { continue }
                } catch let failure as KOSyncClient.Failure where !failure.isWorthRetrying {
                    summary.problem = .failed(failure)
                    return summary
                } catch {
                    continue
                }
            }
            guard let book = try? book(of: issue), let local = try? localPosition(of: issue, book: book, at: position) else { continue }
            do {
                let remote = try pull(issue, book: book)
                if let remote, remote.progress == local.progress {
                    // The server holds our place: remembered, so the next unchanged sync need not read the issue.
                    if remote.isOurs { try? store.rememberSentProgress(local, issueID: issue.id, at: position) }
                    continue
                }
                let changed = (try? store.readingPositionUpdate(issueID: issue.id)) ?? 0
                if let remote, !remote.isOurs, Double(remote.timestamp ?? 0) >= changed {
                    summary.elsewhere.append((issue, remote))
                } else {
                    try queue(local, issueID: issue.id, at: position)
                }
            } catch let problem as Problem where !problem.isWorthRetrying {
                if case .noDocumentID = problem { continue }
                summary.problem = problem
                return summary
            } catch {
                try? queue(local, issueID: issue.id, at: position)
            }
        }
        do {
            summary.sent = try sendQueued()
        } catch {
            summary.problem = error as? Problem
        }
        return summary
    }
}

extension CredentialEntry {
    /// See `ProgressSyncService.loginRealm`.
    public static let progressSyncRealm = "kosync x-auth-key"
}

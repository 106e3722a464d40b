import Foundation
import LocalHTTPServer
import NewsstandContent
import NewsstandCore
import NewsstandRuntime
import NewsstandUI
import Synchronization

/// Case `progress-sync`: opening an issue with progress sync on (a kosync server on 127.0.0.1 holding another
/// device's place) against sync off — the time to the issue opened must not change, the server's answer arriving
/// after it — and a sync of 1,000 downloaded issues' places: cold (the server holds none: 1,000 reads and 1,000
/// writes) and unchanged (1,000 reads, nothing sent).
struct ProgressSyncBenchmark {
    var issues = 1_000
    var repetitions = 10

    func run() throws {
        var table = ResultTable(title: "Progress sync: kosync server on 127.0.0.1; \(Format.count(issues)) issues' places")
        let folder = try TemporaryFolder(prefix: "newsstand-bench-kosync")
        defer { folder.remove() }
        let server = KOSyncServer()
        try server.start()
        defer { server.stop() }
        let key = try KOSyncClient.key(forPassword: "bench")
        server.addUser("bench", key: key)

        let paths = LibraryPaths(dataDirectory: folder.url.appendingPathComponent("data"), configDirectory: folder.url.appendingPathComponent("config"),
                                 cacheDirectory: folder.url.appendingPathComponent("cache"))
        try paths.createDirectories()
        let store = try LibraryStore(file: paths.databaseFile)
        defer { store.close() }
        let credentials = CredentialStore(paths: paths)
        try credentials.save(Credentials(user: "bench", password: key), for: CredentialHost(url: server.baseURL)!, realm: CredentialEntry.progressSyncRealm)
        progress("installing \(Format.count(issues)) issues (a 40-article EPUB each)")
        let archive = folder.url.appendingPathComponent("issue.epub")
        try Self.writeArchive(archive, scratch: folder.url.appendingPathComponent("source"))
        let publication = try store.addPublication(title: "Bench", feedURL: URL(string: "https://example.com/feed")!)
        let entries = (0..<issues).map { CatalogEntry(name: "issue-\($0)", title: "Issue \($0)", date: Date(timeIntervalSince1970: Double(1_700_000_000 + $0)),
                                                      contentURLs: [URL(string: "https://example.com/\($0).epub")!]) }
        let all = try store.upsertIssues(entries, publicationID: publication.id)
        for (index, issue) in all.enumerated() {
            try IssueInstaller.install(assets: [archive], sourceURLs: [issue.contentURLs[0]], for: issue, into: paths.folder(for: issue, of: publication),
                                       diskSync: DiskSync { _ in })
            try store.setDownloadedFileIdentity(DownloadedFileIdentity(partialMD5: try MD5Hex.of("issue \(index)"), fileName: "\(index).epub"), issueID: issue.id)
            try store.setState(.available, issueID: issue.id)
            try store.saveReadingPosition(ReadingPosition(articleIndex: index % 40, blockIndex: 3, characterOffset: 10), issueID: issue.id)
        }

        // Opening, sync off and on: time to `.issueOpened`, and (on) to the server's place offered.
        var settings = ProgressSyncSettings()
        settings.server = server.baseURL
        settings.device = "bench"
        let first = all[0]
        let service = ProgressSyncService(settings: settings, store: store, paths: paths, credentials: credentials)
        server.store("bench", document: try service.documentID(of: first), progress: "/body/DocFragment[20]/body/p[2]/text().0",
                     percentage: 0.5, device: "Kobo", deviceID: "K")
        for on in [false, true] {
            var configuration = Configuration()
            if on { configuration.progressSync = settings }
            var opened: [Double] = [], offered: [Double] = []
            for _ in 0..<repetitions {
                let inbox = Inbox()
                let runner = EffectRunner(store: store, paths: paths, configuration: configuration, credentialStore: credentials) { inbox.add($0) }
                let start = MonotonicClock.now()
                runner.perform(.openIssue(issueID: first.id))
                let (openedAt, offeredAt) = inbox.wait(forOffer: on)
                opened.append(MonotonicClock.seconds(from: start, to: openedAt))
                if let offeredAt { offered.append(MonotonicClock.seconds(from: start, to: offeredAt)) }
                runner.finishPendingSaves()
            }
            table.add("open an issue, sync \(on ? "on" : "off")", Statistics(opened), notes: "perform(.openIssue) → .issueOpened (what the first page waits for)")
            if on, !offered.isEmpty {
                table.add("  … the server's place offered", Statistics(offered), notes: "pulled, mapped (XPointer resolved) and sent after the issue opened")
            }
        }

        progress("syncing \(Format.count(issues)) issues' places, cold and unchanged")
        let (cold, coldSeconds) = MonotonicClock.measure { service.syncEveryIssue() }
        table.add("sync of \(Format.count(issues)) places (cold)", runs: 1, median: Format.duration(coldSeconds),
                  notes: "\(cold.sent) sent\(cold.problem.map { "; \($0)" } ?? "")")
        var unchanged: [Double] = []
        var sent = 0
        for _ in 0..<3 {
            let (summary, seconds) = MonotonicClock.measure { service.syncEveryIssue() }
            unchanged.append(seconds)
            sent += summary.sent
        }
        table.add("sync of \(Format.count(issues)) places (unchanged)", Statistics(unchanged), notes: "\(sent) sent in 3 runs: every place read, none written")
        table.print()
    }

    /// A 40-article EPUB of a few paragraphs each, zipped.
    static func writeArchive(_ archive: URL, scratch: URL) throws {
        try ReaderBenchmark.writeIssue(at: scratch, articles: 40, wordsPerArticle: 300)
        let files = FileManager.default.enumerator(at: scratch, includingPropertiesForKeys: [.isRegularFileKey])?.compactMap { $0 as? URL } ?? []
        let base = scratch.standardizedFileURL.path + "/"
        let entries: [ArchiveWriter.Entry] = try files.filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .map { .file(String($0.standardizedFileURL.path.dropFirst(base.count)), try Data(contentsOf: $0)) }
            .sorted { if case .file(let a, _) = $0, case .file(let b, _) = $1 { return a < b } else { return false } }
        try ArchiveWriter.write(entries, to: archive)
    }

    /// Messages from the runner: when the issue opened and when a place was offered.
    final class Inbox: Sendable {
        private let times = Mutex((openedAt: UInt64?.none, offeredAt: UInt64?.none))
        /// Wakes `wait(forOffer:)`; held while a message is added, so the waiter never misses it.
        private let arrivals = NSCondition()

        func add(_ message: Message) {
            arrivals.withLock {
                times.withLock { times in
                    switch message {
                    case .issueOpened: times.openedAt = times.openedAt ?? MonotonicClock.now()
                    case .progressSyncOffered: times.offeredAt = times.offeredAt ?? MonotonicClock.now()
                    default: break
                    }
                }
                arrivals.broadcast()
            }
        }

        func wait(forOffer: Bool) -> (UInt64, UInt64?) {
            arrivals.withLock {
                let deadline = Date().addingTimeInterval(10)
                var current: (openedAt: UInt64?, offeredAt: UInt64?) { times.withLock { $0 } }
                while current.openedAt == nil || (forOffer && current.offeredAt == nil), arrivals.wait(until: deadline) {}
                let (openedAt, offeredAt) = current
                return (openedAt ?? MonotonicClock.now(), offeredAt)
            }
        }
    }
}

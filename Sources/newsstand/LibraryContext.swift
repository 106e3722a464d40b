import Foundation
import NewsstandCore
import Synchronization

/// What every command needs: the paths, the configuration and the open library,
/// with the sample publication subscribed on the very first run.
struct LibraryContext {
    let paths: LibraryPaths
    var configuration: Configuration
    let store: LibraryStore
    /// Every request of the command goes through this client (libcurl), with the saved logins.
    let client: HTTPClient

    /// Setting remembered once the sample library has been offered, so unsubscribing it sticks.
    static let sampleOfferedSetting = "sample_library_offered"

    /// Opens the library; `paths` and `configuration`, when given, are those already worked out from `environment` (else
    /// they are here).
    static func open(environment: [String: String] = ProcessInfo.processInfo.environment, paths: LibraryPaths? = nil,
                     configuration: Configuration? = nil) throws -> LibraryContext {
        let paths = paths ?? LibraryPaths.fromEnvironment(environment)
        try paths.createDirectories()
        let configuration = configuration ?? Configuration.load(from: paths.configFile)
        let store: LibraryStore
        do {
            store = try LibraryStore(file: paths.databaseFile)
        } catch {
            throw CommandFailure("cannot open the library at \(paths.databaseFile.path): \(error)")
        }
        opened.withLock { $0.append(store) }
        let credentials = CredentialStore(paths: paths)
        let context = LibraryContext(paths: paths, configuration: configuration, store: store, client: HTTPClient(credentials: credentials, environment: environment))
        do {
            for warning in try FeedURLLoginMigration.run(store: store, credentials: credentials) { Self.warn(warning) }
        } catch {
            Self.warn("the logins kept in feed URLs could not be moved to the credential store: \(error)")
        }
        context.subscribeSampleOnFirstRun(environment: environment)
        return context
    }

    /// The libraries this command opened, closed as it ends (`closeOpened`).
    private static let opened = Mutex<[LibraryStore]>([])

    /// Closes the libraries the command opened, as it ends: SQLite folds its write-ahead log into the database and
    /// empties it, so the next start (the shelf's, say, after a `sync` from cron) does not read it all back first.
    static func closeOpened() {
        for store in opened.withLock({ stores in defer { stores = [] }; return stores }) { store.close() }
    }

    /// On an empty library, subscribes the bundled sample publication (once: never again after it is removed).
    private func subscribeSampleOnFirstRun(environment: [String: String]) {
        guard (try? store.setting(Self.sampleOfferedSetting)) == nil,
              (try? store.hasPublications()) == false,
              let sample = ResourceLocator.sampleLibrary(environment) else { return }
        let catalog = sample.appendingPathComponent("catalog.plist")
        do {
            _ = try PublicationRefresher(store: store, client: client).subscribe(to: catalog)
            try store.setSetting(Self.sampleOfferedSetting, to: "yes")
        } catch {
            Self.warn("the sample library at \(sample.path) could not be added: \(error)")
        }
    }

    private static func warn(_ message: String) {
        FileHandle.standardError.write(Data("newsstand: \(message)\n".utf8))
    }

    /// Finds exactly one issue by `HANDLE` or `PUBLICATION/HANDLE` (or the catalog's id in their place).
    func issue(_ reference: String) throws -> Issue {
        let matches = try store.findIssues(reference)
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty { throw CommandFailure("no issue named '\(reference)' (see `newsstand list`)") }
        let names = try matches.map(reference(to:))
        throw CommandFailure("'\(reference)' names several issues; say which: \(names.joined(separator: ", "))")
    }

    /// What to type for an issue on the command line: `PUBLICATION/HANDLE`, as `newsstand list` prints it.
    func reference(to issue: Issue) throws -> String {
        guard let publication = try store.publication(id: issue.publicationID) else { return issue.handle }
        return "\(publication.name)/\(issue.handle)"
    }
}

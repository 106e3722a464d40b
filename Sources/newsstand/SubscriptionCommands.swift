import Foundation
import NewsstandCore

/// `newsstand subscribe URL` and `newsstand unsubscribe PUBLICATION`.
enum SubscriptionCommands {
    static func subscribe(_ arguments: inout ArgumentList) throws {
        let policyText = try arguments.option("--auto-download")
        let keep = try arguments.integerOption("--keep", range: 1...10_000)
        let text = try arguments.positional("URL of a catalog")
        try arguments.finish()
        let policy = try policyText.map { text -> AutoDownloadPolicy in
            guard let policy = AutoDownloadPolicy(rawValue: text) else { throw UsageError("--auto-download takes none, latest or all, not '\(text)'") }
            return policy
        }
        let context = try LibraryContext.open()
        let url = try catalogURL(text)
        do {
            let publication = try PublicationRefresher(store: context.store).subscribe(to: url)
            if policy != nil || keep != nil {
                try context.store.setPolicy(publicationID: publication.id, autoDownload: policy ?? publication.autoDownload, keepNewest: keep ?? publication.keepNewest)
            }
            let count = try context.store.issues(publicationID: publication.id).count
            print("Subscribed to \(publication.title) (\(publication.name)): \(count) issue\(count == 1 ? "" : "s").")
            if let problem = publication.lastError { print("Note: \(problem)") }
        } catch {
            throw CommandFailure("cannot subscribe to \(url.absoluteString): \(error)")
        }
    }

    static func unsubscribe(_ arguments: inout ArgumentList) throws {
        let keepDownloads = arguments.flag("--keep-downloads")
        let reference = try arguments.positional("publication name")
        try arguments.finish()
        let context = try LibraryContext.open()
        guard let publication = try context.store.findPublication(reference) else {
            throw CommandFailure("no publication named '\(reference)'")
        }
        if keepDownloads {
            try context.store.unsubscribeKeepingDownloads(publicationID: publication.id)
            print("Unsubscribed from \(publication.title); its downloaded issues stay on the shelf.")
            return
        }
        try context.store.removePublication(id: publication.id)
        let folder = context.paths.issuesDirectory.appendingPathComponent(PathComponent.safe(publication.name), isDirectory: true)
        try? FileManager.default.removeItem(at: folder)
        print("Unsubscribed from \(publication.title); its downloaded issues were removed.")
    }

    /// A URL as typed: http(s) and file URLs as they are, anything else as a path.
    static func catalogURL(_ text: String) throws -> URL {
        if let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) { return url }
        if text.contains("://") { throw CommandFailure("only http, https and file URLs can be subscribed to") }
        return URL(fileURLWithPath: text).standardizedFileURL
    }
}

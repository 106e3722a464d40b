import Foundation
import NewsstandCore

/// `newsstand import FILE` and `newsstand export`: subscriptions in and out as OPML (newsboat reads and writes the same).
enum OPMLCommands {
    static func importFile(_ arguments: inout ArgumentList) throws {
        let path = try arguments.positional("OPML file")
        try arguments.finish()
        guard let data = FileManager.default.contents(atPath: path) else { throw CommandFailure("cannot read \(path)") }
        let document: OPMLDocument
        do {
            document = try OPMLDocument.parse(data)
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
        let context = try LibraryContext.open()
        let known = Set(try context.store.publications().map(\.feedURL))
        let refresher = PublicationRefresher(store: context.store)
        var added = 0
        var failures: [String] = []
        for outline in document.outlines where !known.contains(outline.feedURL) {
            do {
                _ = try refresher.subscribe(to: outline.feedURL, title: outline.title)
                added += 1
            } catch {
                failures.append("\(outline.title) (\(outline.feedURL.absoluteString)): \(error)")
            }
        }
        let skipped = document.outlines.count - added - failures.count
        print("Imported \(added) subscription\(added == 1 ? "" : "s")" + (skipped > 0 ? "; \(skipped) already subscribed" : "") + ".")
        if !failures.isEmpty {
            throw CommandFailure("\(failures.count) could not be added:\n  " + failures.joined(separator: "\n  "))
        }
    }

    static func export(_ arguments: inout ArgumentList) throws {
        try arguments.finish()
        let context = try LibraryContext.open()
        let outlines = try context.store.publications().map { OPMLDocument.Outline(title: $0.title, feedURL: $0.feedURL) }
        FileHandle.standardOutput.write(Data(OPMLDocument(outlines: outlines).xml().utf8))
    }
}

import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandRuntime
import NewsstandUI

/// `newsstand notes ISSUE --format webannotation|koreader` and `newsstand notes --import FILE ISSUE`: an issue's
/// highlights, notes and bookmarks written for other readers, and read from them (Web Annotation, KOReader's export
/// JSON, KOReader's sidecar `metadata.epub.lua`), re-anchored by their text as highlights are when an issue changes.
enum NotesExchange {
    static func export(_ issue: Issue, format: AnnotationExchange.Format, _ context: LibraryContext) throws -> Data {
        let book = try? ProgressSyncCommands.service(context).book(of: issue)
        if let book { try HighlightRecheck.run(issueID: issue.id, book: book, store: context.store) }
        let highlights = try context.store.highlights(issueID: issue.id).filter { !$0.isLost }.map { highlight in
            ExchangedAnnotation(text: highlight.text, prefix: highlight.before, suffix: highlight.after, note: highlight.note,
                                chapter: highlight.articleTitle, created: highlight.created, start: highlight.start, end: highlight.end)
        }
        let bookmarks = try context.store.bookmarks(issueID: issue.id).map { bookmark in
            ExchangedAnnotation(kind: .bookmark, text: bookmark.name,
                                chapter: book.flatMap { $0.articles.indices.contains(bookmark.position.articleIndex) ? $0.articles[bookmark.position.articleIndex].title : nil } ?? "",
                                created: bookmark.created, start: bookmark.position)
        }
        let reference = try context.reference(to: issue)
        switch format {
        case .webannotation:
            return try AnnotationExchange.webAnnotation(title: issue.title, source: "newsstand:\(reference)", highlights + bookmarks)
        case .koreader:
            return try AnnotationExchange.koreaderJSON(title: issue.title, file: issue.contentURLs.first?.lastPathComponent ?? reference,
                                                       pages: book?.articles.count ?? 0, highlights)
        }
    }

    static func importFile(_ path: String, into issue: Issue, _ context: LibraryContext) throws -> String {
        let url = URL(fileURLWithPath: path)
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int64 ?? ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int).map(Int64.init) else {
            throw CommandFailure("cannot read \(path): no such file")
        }
        guard size <= 16 << 20 else { throw CommandFailure("\(path) is larger than 16 MB; nothing was imported") }
        let annotations: [ExchangedAnnotation]
        do {
            annotations = try AnnotationExchange.read(Data(contentsOf: url))
        } catch {
            throw CommandFailure("cannot read \(path): \(error); nothing was imported")
        }
        guard issue.state == .available else { throw CommandFailure("\(issue.title) is not downloaded: download it first, so the passages can be found") }
        let book: EPUBBook
        do { book = try ProgressSyncCommands.service(context).book(of: issue) } catch { throw CommandFailure("cannot open \(issue.title): \(error)") }
        let place = ProgressSyncPlace(book: book)
        let existingBookmarks = try context.store.bookmarks(issueID: issue.id)
        var highlights = 0, notes = 0, bookmarks = 0, skipped = 0
        var added: [Int64] = []
        for annotation in annotations {
            let start = annotation.start.flatMap { book.articles.indices.contains($0.articleIndex) ? $0 : nil }
                ?? annotation.xpointer.map { place.position(progress: $0, percentage: 0) }
                ?? book.articles.firstIndex { $0.title == annotation.chapter }.map { ReadingPosition(articleIndex: $0, blockIndex: 0) }
                ?? ReadingPosition(articleIndex: 0, blockIndex: 0)
            switch annotation.kind {
            case .bookmark:
                if existingBookmarks.contains(where: { $0.position == start && $0.name == annotation.text }) {
                    skipped += 1
                    continue
                }
                try context.store.addBookmark(Bookmark(issueID: issue.id, position: start, name: annotation.text, created: annotation.created ?? Date()))
                bookmarks += 1
            case .highlight:
                let end = annotation.end.map { $0.articleIndex == start.articleIndex ? $0 : start } ?? start
                added.append(try context.store.addHighlight(Highlight(issueID: issue.id, start: start, end: end, articleTitle: annotation.chapter,
                                                                      text: annotation.text, before: annotation.prefix, after: annotation.suffix,
                                                                      note: annotation.note, created: annotation.created ?? Date())))
            }
        }
        // Found again by their text, as any highlight is; one that lands on a passage already highlighted (with the
        // same note) was there already.
        try HighlightRecheck.run(issueID: issue.id, book: book, store: context.store)
        var kept = try context.store.highlights(issueID: issue.id).filter { !added.contains($0.id) }
        for highlight in try context.store.highlights(issueID: issue.id) where added.contains(highlight.id) {
            if kept.contains(where: { !$0.isLost && !highlight.isLost && $0.start == highlight.start && $0.end == highlight.end && $0.note == highlight.note }) {
                try context.store.deleteHighlight(id: highlight.id)
                skipped += 1
            } else {
                kept.append(highlight)
                highlights += 1
                if !highlight.note.isEmpty { notes += 1 }
            }
        }
        let lost = try context.store.highlights(issueID: issue.id).filter(\.isLost).count
        var report = "Imported \(highlights) highlight\(highlights == 1 ? "" : "s") (\(notes) with notes) and \(bookmarks) bookmark\(bookmarks == 1 ? "" : "s") into \(try context.reference(to: issue))."
        if skipped > 0 { report += " \(skipped) were there already." }
        if lost > 0 { report += " \(lost) passage\(lost == 1 ? " was" : "s were") not found in the issue (kept, listed as no longer found)." }
        return report
    }
}

import Foundation
import NewsstandCore

/// What the catalog screen says about a page beyond its rows: its URL (or what it is: a search, facets),
/// paging (loading, entries dropped to stay within bounds, a page that failed), and an entry's formats.
enum CatalogPageStatus {
    /// The line under the heading.
    static func subtitle(_ page: CatalogScreen.Page) -> String {
        // What is happening first: a long URL must not hide it.
        var parts: [String] = []
        if let failure = page.pagingFailure { parts.append(failure) }
        if page.isLoadingMore { parts.append("loading the next page…") }
        if page.droppedEntries > 0 { parts.append("\(page.droppedEntries) earlier entries not kept (at most \(CatalogScreen.maxEntries))") }
        parts.append(page.label ?? page.url.absoluteString)
        if page.feed?.search != nil && page.feed?.facets.isEmpty == false {
            parts.append("/ search · f facets")
        } else if page.feed?.search != nil {
            parts.append("/ search")
        } else if page.feed?.facets.isEmpty == false {
            parts.append("f facets")
        }
        return parts.joined(separator: " · ")
    }

    /// " · EPUB 143 KB": the entry's acquisition formats, and its size when the catalog gives it.
    static func formats(_ entry: CatalogEntry) -> String {
        let names = entry.contentTypes.map(formatName).filter { !$0.isEmpty }
        let stream = entry.pageStream.map { " · \($0.pageCount) pages to stream" } ?? ""
        guard !names.isEmpty else { return stream }
        return " · " + names.joined(separator: ", ") + ((entry.contentLengths.first ?? nil ?? entry.expectedSize).map { " " + size($0) } ?? "") + stream
    }

    /// "143 KB", "2.1 MB".
    static func size(_ bytes: Int64) -> String {
        if bytes < 1 << 20 { return "\(max(1, (bytes + 512) >> 10)) KB" }
        return String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
    }

    /// A media type as people name the format: EPUB, PDF, CBZ…; else the type's subtype.
    static func formatName(_ type: String) -> String {
        let lowered = type.lowercased()
        if lowered.hasPrefix("application/epub") { return "EPUB" }
        if lowered.hasPrefix("application/pdf") { return "PDF" }
        if lowered.contains("comicbook+zip") || lowered.contains("x-cbz") || lowered.hasPrefix("application/zip") { return "CBZ" }
        if lowered.contains("comicbook-rar") || lowered.contains("x-cbr") { return "CBR" }
        if lowered.contains("mobipocket") { return "MOBI" }
        return String(lowered.split(separator: "/").last?.split(separator: ";").first ?? "")
    }
}

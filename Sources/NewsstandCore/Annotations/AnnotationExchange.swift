import Foundation
import NewsstandContent

/// Highlights, notes and bookmarks written for other readers and read from them: W3C Web Annotation JSON-LD (the
/// model EPUB Annotations builds on), the JSON KOReader's exporter writes, and KOReader's own sidecar
/// (`book.sdr/metadata.epub.lua`, its `annotations` table). What is read is bounded (16 MB, 100,000 annotations,
/// each text cut at 100,000 characters) and made safe for a terminal.
public enum AnnotationExchange {
    public enum Format: String, Sendable, CaseIterable { case webannotation, koreader }

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    static let maxBytes = 16 << 20
    static let maxAnnotations = 100_000
    static let maxText = 100_000

    // MARK: Writing

    /// W3C Web Annotation: an `AnnotationCollection` whose one page holds an `Annotation` per mark. A highlight's
    /// target has a `TextQuoteSelector` (`exact`, `prefix`, `suffix`) and a position selector (a `FragmentSelector`
    /// `article=N&block=B&offset=O&end=B,O`, Newsstand's width-independent place, the article counted from 1); a
    /// note is a `TextualBody` (`commenting`); a bookmark is `bookmarking` with its name as a `TextualBody`.
    public static func webAnnotation(title: String, source: String, _ annotations: [ExchangedAnnotation]) throws -> Data {
        let formatter = ISO8601DateFormatter()
        let items: [[String: Any]] = annotations.enumerated().map { index, annotation in
            var selectors: [[String: Any]] = []
            if annotation.kind == .highlight {
                selectors.append(["type": "TextQuoteSelector", "exact": annotation.text, "prefix": annotation.prefix, "suffix": annotation.suffix])
            }
            if let start = annotation.start {
                var value = "article=\(start.articleIndex + 1)&block=\(start.blockIndex)&offset=\(start.characterOffset)"
                if let end = annotation.end { value += "&end=\(end.blockIndex),\(end.characterOffset)" }
                selectors.append(["type": "FragmentSelector", "value": value])
            }
            var item: [String: Any] = ["id": "\(source)#annotation-\(index + 1)", "type": "Annotation",
                                       "target": ["source": source, "selector": selectors] as [String: Any]]
            if let created = annotation.created { item["created"] = formatter.string(from: created) }
            if !annotation.chapter.isEmpty { item["newsstand:chapter"] = annotation.chapter }
            switch annotation.kind {
            case .bookmark:
                item["motivation"] = "bookmarking"
                item["body"] = [["type": "TextualBody", "value": annotation.text, "purpose": "describing", "format": "text/plain"]]
            case .highlight where !annotation.note.isEmpty:
                item["motivation"] = "commenting"
                item["body"] = [["type": "TextualBody", "value": annotation.note, "purpose": "commenting", "format": "text/plain"]]
            case .highlight:
                item["motivation"] = "highlighting"
            }
            return item
        }
        let collection: [String: Any] = [
            "@context": ["http://www.w3.org/ns/anno.jsonld", ["newsstand": "https://github.com/newsstand#"]],
            "type": "AnnotationCollection", "label": title, "total": items.count,
            "first": ["type": "AnnotationPage", "startIndex": 0, "items": items] as [String: Any],
        ]
        return try JSONSerialization.data(withJSONObject: collection, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    /// The JSON KOReader's exporter writes for one book: `title`, `author`, `file`, `number_of_pages`, `created_on`,
    /// `version` and `entries` (`sort` "highlight", `text`, `note`, `chapter`, `page`, `time`, `drawer`). Bookmarks
    /// are not part of it.
    public static func koreaderJSON(title: String, file: String, pages: Int, _ annotations: [ExchangedAnnotation]) throws -> Data {
        let entries: [[String: Any]] = annotations.filter { $0.kind == .highlight }.map { annotation in
            var entry: [String: Any] = ["sort": "highlight", "text": annotation.text, "chapter": annotation.chapter, "drawer": "lighten",
                                        "page": (annotation.start?.articleIndex ?? 0) + 1,
                                        "time": Int((annotation.created ?? Date()).timeIntervalSince1970)]
            if !annotation.note.isEmpty { entry["note"] = annotation.note }
            return entry
        }
        let object: [String: Any] = ["title": title, "author": "", "file": file, "number_of_pages": pages,
                                     "created_on": Int(Date().timeIntervalSince1970), "version": "Newsstand \(NewsstandVersion.string)",
                                     "entries": entries]
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    // MARK: Reading

    /// Reads any of the three: JSON with an `@context` or `type` (Web Annotation), JSON with `entries` or `documents`
    /// (KOReader's exporter), else a Lua table literal with `annotations` (KOReader's sidecar).
    public static func read(_ data: Data) throws -> [ExchangedAnnotation] {
        guard data.count <= maxBytes else { throw Failure("the file is larger than 16 MB") }
        if let object = try? JSONSerialization.jsonObject(with: data) {
            if let dictionary = object as? [String: Any] {
                if dictionary["entries"] != nil || dictionary["documents"] != nil { return try bounded(koreaderEntries(dictionary)) }
                if dictionary["@context"] != nil || dictionary["type"] != nil { return try bounded(webAnnotations(dictionary)) }
            }
            if let array = object as? [[String: Any]] { return try bounded(array.flatMap(webAnnotationItem)) }
            throw Failure("the JSON is neither Web Annotation nor KOReader's export")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw Failure("the file is not UTF-8 text") }
        let value: LuaValue
        do { value = try LuaTableLiteral.parse(text) } catch { throw Failure("not JSON, and not a KOReader sidecar: \(error)") }
        guard let annotations = value.table?["annotations"]?.table else {
            throw Failure("the KOReader sidecar has no annotations table")
        }
        return try bounded(annotations.array.compactMap { $0.table.flatMap(sidecarAnnotation) })
    }

    private static func bounded(_ annotations: [ExchangedAnnotation]) throws -> [ExchangedAnnotation] {
        guard annotations.count <= maxAnnotations else { throw Failure("more than \(maxAnnotations) annotations") }
        return annotations.map { annotation in
            var safe = annotation
            safe.text = clean(annotation.text)
            safe.prefix = clean(annotation.prefix)
            safe.suffix = clean(annotation.suffix)
            safe.note = clean(annotation.note)
            safe.chapter = clean(annotation.chapter)
            return safe
        }.filter { !$0.text.isEmpty }
    }

    private static func clean(_ text: String) -> String {
        String(TextSanitizer.singleLine(String(text.prefix(maxText))).split(whereSeparator: \.isWhitespace).joined(separator: " "))
    }

    private static func webAnnotations(_ object: [String: Any]) throws -> [ExchangedAnnotation] {
        if object["type"] as? String == "Annotation" { return webAnnotationItem(object) }
        var items: [[String: Any]] = object["items"] as? [[String: Any]] ?? []
        if let first = object["first"] as? [String: Any] { items += first["items"] as? [[String: Any]] ?? [] }
        return items.flatMap(webAnnotationItem)
    }

    private static func webAnnotationItem(_ item: [String: Any]) -> [ExchangedAnnotation] {
        let targets: [[String: Any]] = (item["target"] as? [String: Any]).map { [$0] } ?? (item["target"] as? [[String: Any]] ?? [])
        let bodies: [[String: Any]] = (item["body"] as? [String: Any]).map { [$0] } ?? (item["body"] as? [[String: Any]] ?? [])
        let bodyText = bodies.compactMap { $0["value"] as? String }.joined(separator: "\n")
        let isBookmark = item["motivation"] as? String == "bookmarking"
        let created = (item["created"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }
        guard let target = targets.first else { return [] }
        let selectors: [[String: Any]] = (target["selector"] as? [String: Any]).map { [$0] } ?? (target["selector"] as? [[String: Any]] ?? [])
        var annotation = ExchangedAnnotation(kind: isBookmark ? .bookmark : .highlight, text: isBookmark ? bodyText : "",
                                             note: isBookmark ? "" : bodyText, chapter: item["newsstand:chapter"] as? String ?? "", created: created)
        for selector in selectors {
            switch selector["type"] as? String {
            case "TextQuoteSelector":
                annotation.text = selector["exact"] as? String ?? annotation.text
                annotation.prefix = selector["prefix"] as? String ?? ""
                annotation.suffix = selector["suffix"] as? String ?? ""
            case "FragmentSelector":
                if let value = selector["value"] as? String { (annotation.start, annotation.end) = place(value) }
            default: break
            }
        }
        if isBookmark && annotation.text.isEmpty { annotation.text = "Bookmark" }
        return [annotation]
    }

    /// `article=N&block=B&offset=O&end=B,O`.
    static func place(_ value: String) -> (ReadingPosition?, ReadingPosition?) {
        var fields: [String: String] = [:]
        for pair in value.split(separator: "&").prefix(8) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        guard let article = fields["article"].flatMap({ Int($0) }), article >= 1, article < 100_000,
              let block = fields["block"].flatMap({ Int($0) }), block >= 0, block < 10_000_000 else { return (nil, nil) }
        let offset = fields["offset"].flatMap { Int($0) }.map { max(0, min($0, 100_000_000)) } ?? 0
        let start = ReadingPosition(articleIndex: article - 1, blockIndex: block, characterOffset: offset)
        let endParts = fields["end"]?.split(separator: ",").compactMap { Int($0) } ?? []
        let end = endParts.count == 2 && endParts.allSatisfy({ $0 >= 0 && $0 < 100_000_000 })
            ? ReadingPosition(articleIndex: article - 1, blockIndex: endParts[0], characterOffset: endParts[1]) : nil
        return (start, end)
    }

    private static func koreaderEntries(_ object: [String: Any]) throws -> [ExchangedAnnotation] {
        let documents = (object["documents"] as? [[String: Any]]) ?? [object]
        return documents.flatMap { document in
            (document["entries"] as? [Any] ?? []).compactMap { raw -> ExchangedAnnotation? in
                // Entries are objects, or (older exports) one-element arrays of one.
                guard let entry = (raw as? [String: Any]) ?? (raw as? [[String: Any]])?.first else { return nil }
                guard (entry["sort"] as? String ?? "highlight") == "highlight", let text = entry["text"] as? String else { return nil }
                let time = (entry["time"] as? NSNumber)?.doubleValue
                return ExchangedAnnotation(text: text, note: entry["note"] as? String ?? "", chapter: entry["chapter"] as? String ?? "",
                                           created: time.map { Date(timeIntervalSince1970: $0) },
                                           xpointer: (entry["page"] as? String) ?? (entry["page"] as? NSNumber)?.stringValue)
            }
        }
    }

    private static func sidecarAnnotation(_ table: LuaTable) -> ExchangedAnnotation? {
        guard let text = table["text"]?.string else { return nil }
        let created = table["datetime"]?.string.flatMap(koreaderDate)
        let isBookmark = table["pos0"] == nil && table["page"]?.string?.hasPrefix("/body") == true && table["drawer"] == nil
        return ExchangedAnnotation(kind: isBookmark ? .bookmark : .highlight, text: text, note: table["note"]?.string ?? "",
                                   chapter: table["chapter"]?.string ?? "", created: created,
                                   xpointer: table["pos0"]?.string ?? table["page"]?.string ?? table["page"]?.number.map { String(Int($0)) })
    }

    /// KOReader's `datetime`: `2024-03-02 17:45:10`, local time.
    static func koreaderDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.date(from: text)
    }
}

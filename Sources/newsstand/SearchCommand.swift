import Foundation
import NewsstandContent
import NewsstandCore

/// `newsstand search TEXT... [--limit N]`: finds words in every downloaded issue (indexing issues
/// not indexed yet) and prints, per match, the issue, the article (numbered as `read --article`
/// takes it) and a snippet; then matches in headlines (`publication/headline-N  title`, the name `mark` takes). Exit status 1
/// when nothing matches.
enum SearchCommand {
    static func run(_ arguments: inout ArgumentList) throws {
        let limit = try arguments.integerOption("--limit", range: 1...10_000) ?? 50
        let words = try arguments.positionals("text to search for")
        try arguments.finish()
        let query = words.joined(separator: " ")
        let context = try LibraryContext.open()
        let hits = try IssueSearchIndex(store: context.store, paths: context.paths).search(query, limit: limit)
        guard !hits.isEmpty else {
            throw CommandFailure("no matches for “\(TextSanitizer.singleLine(query))”")
        }
        let styled = isatty(STDOUT_FILENO) == 1 && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        var output = ""
        for hit in hits {
            if let headline = hit.headline {
                // The name `mark` and `headlines` take.
                output += "\(hit.publicationName)/headline-\(headline.position + 1)  \(hit.articleTitle)\n"
            } else {
                output += "\(hit.publicationName)/\(hit.issueName)  \(hit.issueTitle) — \(hit.articleIndex + 1). \(hit.articleTitle)\n"
            }
            output += "    " + hit.snippet.map { part in
                part.isMatch ? (styled ? "\u{1B}[1m\(part.text)\u{1B}[0m" : "[\(part.text)]") : part.text
            }.joined() + "\n"
        }
        FileHandle.standardOutput.write(Data(output.utf8))
    }
}

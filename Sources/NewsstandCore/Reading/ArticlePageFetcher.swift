import Foundation
import NewsstandContent

/// Fetches a web page and extracts its article (`ArticleExtractor`): over http and https through
/// the program's `HTTPClient` (its logins, origin rules and limits: the page's bytes are capped as
/// they arrive, a silent server is given up), or from a saved file (refused above the same cap).
///
/// Blocking: call it off the UI thread.
public enum ArticlePageFetcher {
    /// The longest a page may take in all, and without a byte.
    public static let deadline: TimeInterval = 30
    public static let silence = 15

    /// The limits a page is fetched within.
    public static func limits(maxBytes: Int = ArticleLimits.default.maxPageBytes) -> HTTPLimits {
        HTTPLimits(maxBodyBytes: Int64(maxBytes), maxReceivedBytes: Int64(maxBytes), deadline: deadline,
                   lowSpeed: HTTPLimits.LowSpeed(bytesPerSecond: 1, seconds: silence),
                   subject: "the page", sizeLimitName: "page size limit")
    }

    /// The page at `url` and where it ended up (after redirects), with the charset HTTP named.
    public static func fetchPage(_ url: URL, client: HTTPClient, limits: ArticleLimits = .default) throws -> (data: Data, url: URL, charset: String?) {
        switch url.scheme?.lowercased() {
        case "http", "https":
            let response = try client.fetch(HTTPRequest(url: url, headers: ["Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"],
                                                        limits: Self.limits(maxBytes: limits.maxPageBytes)))
            return (response.body, response.head.url, charset(ofContentType: response.head.header("Content-Type")))
        case "file":
            return (try readFile(url, limits: limits), url, nil)
        default:
            throw FetchError("only http and https pages (or a saved file) have articles: \(url.absoluteString)")
        }
    }

    /// A saved page, refused when larger than the page size limit.
    public static func readFile(_ url: URL, limits: ArticleLimits = .default) throws -> Data {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard let size = attributes?[.size] as? Int else { throw FetchError("cannot read \(url.path): no such file") }
        if size > limits.maxPageBytes {
            throw FetchError("\(url.lastPathComponent) is larger than the page size limit (\(limits.maxPageBytes >> 20) MB)")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else { throw FetchError("cannot read \(url.path)") }
        return data
    }

    /// The article of the page at `url` (`base`: where a saved file came from).
    public static func article(at url: URL, base: URL? = nil, client: HTTPClient, limits: ArticleLimits = .default) throws -> ExtractedArticle {
        let page = try fetchPage(url, client: client, limits: limits)
        let pageURL = base ?? (page.url.isFileURL ? nil : page.url)
        return ArticleExtractor.extract(from: page.data, url: pageURL, encoding: page.charset, limits: limits)
    }

    /// `charset=` of a Content-Type header, if it names one.
    static func charset(ofContentType value: String?) -> String? {
        guard let value else { return nil }
        for parameter in value.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0].lowercased() == "charset" {
                let name = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                return name.isEmpty ? nil : name
            }
        }
        return nil
    }
}

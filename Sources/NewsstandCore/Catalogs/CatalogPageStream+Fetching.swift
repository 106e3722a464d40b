import Foundation

extension CatalogPageStream {
    /// Fetches page `index`'s picture through `client` (and so with the catalog's login): at most `maxBytes`
    /// as received and as decoded, failing after `timeout` seconds without a byte or a minute in all.
    /// Only http and https pages are fetched. Blocking: call it from a background queue.
    public func fetchPage(_ index: Int, maxWidth: Int, maxBytes: Int, timeout: TimeInterval = 20, client: HTTPClient) throws -> Data {
        guard let url = url(forPage: index, maxWidth: maxWidth) else {
            throw FetchError("page \(index + 1) is not in the book (it has \(pageCount))")
        }
        guard ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            throw FetchError("only pages on the web are streamed")
        }
        let limits = ResourceFetcher.limits(maxBytes: maxBytes, timeout: timeout, subject: "page \(index + 1)", sizeLimitName: "page size limit")
        // Servers that convert pages on the fly (Komga, Kavita) are asked for what Newsstand draws.
        let request = HTTPRequest(url: url, headers: ["Accept": "image/jpeg, image/png;q=0.9, image/*;q=0.5"], limits: limits)
        return try client.fetch(request).body
    }
}

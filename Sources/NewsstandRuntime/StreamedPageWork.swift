import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandImaging
import NewsstandUI

/// Fetching and drawing one streamed page (OPDS-PSE), as a plain function `EffectRunner` calls off the UI
/// thread: within a comic book page's limits in bytes and pixels, every failure said in plain words.
public enum StreamedPageWork {
    /// The widest page asked of the server (`{maxWidth}`), whatever the window.
    public static let maximumWidth = 1600

    /// The `{maxWidth}` to ask for when a page is drawn `columns` cells wide: enough pixels for the text art
    /// (twice what it samples), at most `maximumWidth`.
    public static func maxWidth(forColumns columns: Int) -> Int {
        min(maximumWidth, max(320, columns * 8))
    }

    /// Fetches and draws `request`'s page. A server asking for a login throws (so the login can be asked for);
    /// every other failure is the result's, naming the page.
    public static func page(_ request: StreamedPageRequest, client: HTTPClient) throws(HTTPError) -> Result<TextArt, ReaderFailure> {
        let number = request.page + 1
        let data: Data
        do {
            data = try request.stream.fetchPage(request.page, maxWidth: maxWidth(forColumns: request.drawing.columns),
                                                maxBytes: ReaderWork.maximumPictureBytes, client: client)
        } catch HTTPError.loginRequired(let host, let realm) {
            throw .loginRequired(host: host, realm: realm)
        } catch {
            return .failure(ReaderFailure("page \(number) could not be fetched: " + TextSanitizer.singleLine("\(error)")))
        }
        if ImageDecoder.format(of: data) == nil, let name = ImageDecoder.formatName(of: data) {
            return .failure(ReaderFailure("page \(number) is a \(name) picture, which Newsstand cannot show"))
        }
        let drawing = request.drawing
        return ReaderWork.draw(data, columns: drawing.columns, rows: drawing.rows, mode: drawing.mode, background: drawing.background,
                               maximumPixels: ReaderWork.maximumPagePixels)
            .mapError { ReaderFailure("page \(number): " + $0.reason) }
    }
}

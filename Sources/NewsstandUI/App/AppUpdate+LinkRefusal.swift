import Foundation
import NewsstandCore

/// Which links and files of a feed may be opened or played.
extension AppUpdate {
    /// Why a headline's link or file is not handed to the browser or the player: its feed may not point there
    /// (``DocumentOrigin``; a feed from the network never to a local file). A publication not in view is held
    /// to the network's rule, the strictest.
    static func refusal(of url: URL, publicationID: Int64, _ state: SharedState) -> String? {
        let publication = state.library.publications.first { $0.id == publicationID }
        return (publication.map(DocumentOrigin.init(of:)) ?? .network).refusal(of: url)
    }
}

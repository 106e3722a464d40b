import Foundation

extension LibraryStore {
    /// The origin of a publication's feed and issues (``DocumentOrigin/init(of:)``); the network's, the
    /// strictest, when the publication cannot be read.
    public func documentOrigin(publicationID: Int64) -> DocumentOrigin {
        (try? publication(id: publicationID)).flatMap { $0 }.map(DocumentOrigin.init(of:)) ?? .network
    }
}

import NewsstandCore

/// Progress sync in the reader: a place another device reached, asked about on the status line (or gone to).
extension ReaderScreen {
    mutating func progressSyncOffered(_ offer: ProgressSyncOffer, _ shared: inout SharedState) -> [Effect] {
        guard book != nil else { return [] }
        if offer.jump { return goTo(offer, &shared) }
        // A question already open (a search being typed) is not taken over: the offer waits for no one.
        guard shared.prompt == nil else { return [] }
        shared.prompt = Prompt(.confirmProgressSync(offer))
        return []
    }

    /// The offer taken (asked, or to jump to at once): the reader goes to the other device's place.
    mutating func goTo(_ offer: ProgressSyncOffer, _ shared: inout SharedState) -> [Effect] {
        guard issueID == offer.issueID, let book, book.articles.indices.contains(offer.position.articleIndex) else { return [] }
        shared.message = StatusMessage("Went to \(offer.device)'s place: \(offer.percentText), “\(offer.articleTitle)”.")
        pendingPosition = offer.position
        return openArticle(offer.position.articleIndex, &shared)
    }
}

import NewsstandCore

/// Progress sync in the reader: a place another device reached, asked about on the status line (or gone to).
extension AppUpdate {
    static func progressSyncOffered(_ offer: ProgressSyncOffer, _ state: inout ReaderContext) -> [Effect] {
        guard let reader = state.reader, reader.book != nil else { return [] }
        if offer.jump { return goTo(offer, &state) }
        // A question already open (a search being typed) is not taken over: the offer waits for no one.
        guard state.prompt == nil else { return [] }
        state.prompt = Prompt(.confirmProgressSync(offer))
        return []
    }

    /// The answer to the offer (asked on the bottom line): y goes there (the reader's `submit`).
    static func confirmProgressSync(_ offer: ProgressSyncOffer, key: Key, _ state: inout AppState) -> [Effect] {
        guard let prompt = state.prompt else { return [] }
        state.prompt = nil
        guard key == .character("y") || key == .character("Y") else {
            state.message = StatusMessage("Staying here.")
            return []
        }
        return submitToAll(prompt, &state)
    }

    static func goTo(_ offer: ProgressSyncOffer, _ state: inout ReaderContext) -> [Effect] {
        guard var reader = state.reader, reader.issueID == offer.issueID, let book = reader.book,
              book.articles.indices.contains(offer.position.articleIndex) else { return [] }
        state.message = StatusMessage("Went to \(offer.device)'s place: \(offer.percentText), “\(offer.articleTitle)”.")
        reader.pendingPosition = offer.position
        return openArticle(offer.position.articleIndex, &reader, &state)
    }
}

/// Something the user can ask for; keys map to commands through `KeyMap` (and the config's `bind` lines, by `name`).
public enum Command: String, Hashable, Sendable, CaseIterable {
    case moveUp, moveDown, moveLeft, moveRight, pageUp, pageDown, top, bottom
    case toggleShelfView
    case showDetails
    case tap
    case cancelDownload
    case continueReading
    case refresh
    case nextPublication, previousPublication
    case nextArticle, previousArticle
    case tableOfContents
    case help
    case back
    case quit
    case showSubscriptions, addSubscription, removeSubscription, renameSubscription
    case refreshSelected, cycleAutoDownload, keepMore, keepFewer, showHeadlines
    case showStorage, enforceStorageBudget, importOPML, exportOPML
    case showAccounts, addAccount, removeAccount, toggleStar
    case browseCatalog, subscribeToViewedFeed
    case searchCatalog, showFacets, useCatalogFeed, chooseCatalogFeed
    case searchIssue, searchLibrary
    case nextMatch, previousMatch
    case openLink
    case playMedia
    case deleteIssue
    case toggleRead, cycleSort, cycleFilter
    case pagePicture
    case showDownloads
    case pauseResumeDownload, retryDownload, moveDownloadUp, moveDownloadDown
    case fewerTransfers, moreTransfers, cycleRateLimit
    case addBookmark, showBookmarks, showHighlights, selectPassage, nextWord, previousWord, addNote, deleteMark
    case fetchWholeArticle, cycleFullText
}

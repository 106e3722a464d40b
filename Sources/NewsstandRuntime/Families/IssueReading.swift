import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandUI
import Synchronization

/// Reading an issue: opening its book (kept while the same issue is read), its articles, its place, its read and
/// starred marks, its bookmarks and highlights, and searching it or the whole library.
final class IssueReading: EffectFamily {
    private let services: RuntimeServices
    private let library: LibraryWindows
    private let accounts: AccountWork
    /// Books and articles.
    private let queue = DispatchQueue(label: "newsstand.reading", qos: .userInitiated)
    /// Searches (an issue's articles, the library's index) and highlight checks, so they never hold up loading articles.
    private let searchQueue = DispatchQueue(label: "newsstand.search", qos: .utility)
    /// The book of the issue being read.
    private let bookCache = Mutex<(issueID: Int64, book: EPUBBook)?>(nil)

    init(services: RuntimeServices, library: LibraryWindows, accounts: AccountWork) {
        self.services = services
        self.library = library
        self.accounts = accounts
    }

    func perform(_ effect: Effect) {
        let services = services
        let store = services.store
        switch effect {
        case .openIssue(let issueID):
            queue.async { self.open(issueID) }
        case .loadArticle(let issueID, let articleIndex):
            queue.async {
                let result = self.openBook(issueID: issueID).flatMap { book -> Result<[TextBlock], ReaderFailure> in
                    Result { try IssueContent.blocks(of: book, article: articleIndex) }.mapError { ReaderFailure("\($0)") }
                }
                services.send(.articleLoaded(issueID: issueID, articleIndex: articleIndex, result))
            }
        case .saveReadingPosition(let issueID, let position):
            services.saves.async {
                try? store.saveReadingPosition(position, issueID: issueID)
                self.accounts.progressSync?.saved(issueID: issueID, position: position)
            }
        case .markRead(let issueID, let read):
            services.saves.async {
                do {
                    try store.setRead(read, issueID: issueID)
                } catch {
                    services.report(.issueNotMarked(read: read, reason: "\(error)"))
                }
                self.library.reload()
                self.accounts.sendMarks(ofIssue: issueID)
            }
        case .toggleStar(let issueID):
            services.saves.async {
                do {
                    guard let issue = try store.issue(id: issueID) else { return }
                    let starred = !(try store.starredIssueIDs().contains(issueID))
                    try store.setStarred(starred, issueID: issueID)
                    services.report(.issueStarred(title: issue.title, starred: starred))
                } catch {
                    services.report(.issueNotStarred(reason: "\(error)"))
                }
                self.accounts.sendMarks(ofIssue: issueID)
            }
        case .loadMarks(let issueID):
            queue.async { self.loadMarks(issueID) }
        case .addBookmark(let bookmark):
            services.saves.async {
                _ = try? store.addBookmark(bookmark)
                self.sendMarks(bookmark.issueID)
            }
        case .addHighlight(let highlight):
            services.saves.async {
                _ = try? store.addHighlight(highlight)
                self.sendMarks(highlight.issueID)
            }
        case .setNote(let issueID, let highlightID, let note):
            services.saves.async {
                try? store.setNote(note, highlightID: highlightID)
                self.sendMarks(issueID)
            }
        case .deleteMark(let mark):
            services.saves.async {
                switch mark {
                case .bookmark(let bookmark): try? store.deleteBookmark(id: bookmark.id)
                case .highlight(let highlight): try? store.deleteHighlight(id: highlight.id)
                }
                self.sendMarks(mark.issueID)
            }
        case .searchIssue(let issueID, let query):
            searchQueue.async {
                let result = services.issueFolder(issueID).flatMap { folder in
                    Result { ReaderWork.matches(of: query, in: try IssueContent.allBlocks(of: try IssueContent.openBook(folder: folder))) }
                        .mapError { ReaderFailure("\($0)") }
                }
                services.send(.issueSearched(issueID: issueID, query: query, result))
            }
        case .searchLibrary(let query):
            searchQueue.async {
                let result = Result { try IssueSearchIndex(store: store, paths: services.paths).search(query) }.mapError { ReaderFailure("\($0)") }
                services.send(.librarySearched(query: query, result))
            }
        default:
            break
        }
    }

    /// Hands `body` the issue's book (nil when it cannot be opened), from this family's queue, behind the reading
    /// asked for before (a PDF or comic page to draw).
    func withBook(issueID: Int64, _ body: @escaping @Sendable (EPUBBook?) -> Void) {
        queue.async { body(try? self.openBook(issueID: issueID).get()) }
    }

    /// Opens an issue: its book, where the reader was, its marks; it counts as opened and, with progress sync, its
    /// place on the server is looked up.
    private func open(_ issueID: Int64) {
        let store = services.store
        let result = openBook(issueID: issueID)
        let position = try? store.readingPosition(issueID: issueID)
        if case .success = result {
            try? store.markOpened(issueID: issueID)
            accounts.sendMarks(ofIssue: issueID)
        }
        services.send(.issueOpened(issueID: issueID, result, resumeAt: position))
        if case .success(let book) = result {
            loadMarks(issueID)
            accounts.progressSync?.opened(issueID: issueID, book: book)
        }
        services.sendLibrary()
    }

    /// Sends an issue's marks as stored, then checks its highlights against its text (off the reader's queue: a
    /// re-downloaded issue may have moved or lost a passage) and sends them again when that changed any.
    private func loadMarks(_ issueID: Int64) {
        sendMarks(issueID)
        searchQueue.async {
            guard case .success(let folder) = self.services.issueFolder(issueID), let book = try? IssueContent.openBook(folder: folder),
                  (try? HighlightRecheck.run(issueID: issueID, book: book, store: self.services.store)) == true else { return }
            self.sendMarks(issueID)
        }
    }

    private func sendMarks(_ issueID: Int64) {
        services.send(.marksLoaded(issueID: issueID, Result { try services.store.marks(issueID: issueID) }.mapError { ReaderFailure("\($0)") }))
    }

    /// Opens an installed issue's book (kept while the same issue is read). Called on `queue` only.
    private func openBook(issueID: Int64) -> Result<EPUBBook, ReaderFailure> {
        if let cached = bookCache.withLock({ $0 }), cached.issueID == issueID { return .success(cached.book) }
        let store = services.store
        do {
            guard let issue = try store.issue(id: issueID), let publication = try store.publication(id: issue.publicationID) else {
                return .failure(ReaderFailure("the issue is no longer in the library"))
            }
            guard issue.state == .available else { return .failure(ReaderFailure("the issue is no longer downloaded")) }
            let book = try IssueContent.openBook(folder: services.paths.folder(for: issue, of: publication))
            bookCache.withLock { $0 = (issueID, book) }
            return .success(book)
        } catch {
            return .failure(ReaderFailure("\(error)"))
        }
    }
}

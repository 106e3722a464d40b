import Foundation
import NewsstandCore

/// A question on the bottom line: text to type (a feed URL, a title, a search, a link number, a login) or a
/// choice to confirm. While it is open, keys go to it.
///
/// A password is never drawn: its field shows one `•` per character typed, and a feed URL's field masks the
/// password of a `user:password@` in it the same way. Printing a prompt hides them too.
public struct Prompt: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// Type or paste a feed URL to subscribe to.
        case addSubscription
        /// Type a new title for a publication.
        case rename(publicationID: Int64)
        /// y: keep the downloaded issues, n: remove them too, Esc: do nothing.
        case confirmUnsubscribe(publicationID: Int64, title: String)
        /// y: remove a title (and its file) from the Library shelf.
        case confirmRemoveTitle(issueID: Int64, title: String)
        /// y: delete an issue's downloaded file (it stays on the shelf).
        case confirmDeleteDownload(issueID: Int64, title: String)
        /// `/` in the reader: search the open issue.
        case searchIssue
        /// `/` on the shelf: search every downloaded issue.
        case searchLibrary
        /// `/` in the catalog browser: search the catalog.
        case searchCatalog
        /// `o`: the number of a link of the article.
        case link
        /// A path to an OPML file to import subscriptions from.
        case importOPML
        /// A path to write the subscriptions to as OPML.
        case exportOPML
        /// A server asked for a login: its user name, typed (the password is asked next).
        case loginUser(LoginRequest)
        /// The password for `user`, typed without being shown.
        case loginPassword(LoginRequest, user: String)
        /// y: save the login, n: use it until Newsstand quits, Esc: forget it.
        case confirmSaveLogin(LoginRequest, credentials: Credentials)
        /// `m`: the new bookmark's name (the field starts with the article and first words).
        case bookmarkName(Bookmark)
        /// A highlight's note: a new highlight (`a` while choosing a passage) or one of the list's.
        case note(Highlight)
        /// y: delete a bookmark or highlight.
        case confirmDeleteMark(IssueMark)
        /// y: go to the place another device reached in the open issue (progress sync).
        case confirmProgressSync(ProgressSyncOffer)
        /// `a` on the accounts screen: the API's URL, then the user, then the password (never shown).
        case accountURL
        case accountUser(url: String)
        case accountPassword(url: String, user: String)
        /// y: remove an account.
        case confirmRemoveAccount(url: String, user: String)
        /// A web feed typed while there are several accounts: 1…9 subscribes on that account, 0 as a feed of one's own.
        case chooseSubscriptionAccount(url: String, accounts: [Account])
    }

    public var kind: Kind
    public var field: TextField

    public init(_ kind: Kind, text: String = "") {
        self.kind = kind
        field = TextField(text)
    }

    /// What has been typed.
    public var text: String { field.text }

    /// What the bottom line says before the typed text.
    public var label: String {
        switch kind {
        case .addSubscription: "Feed URL: "
        case .rename: "New title: "
        case .confirmRemoveTitle(_, let title): "Remove \(title) and its file from the Library shelf? y remove · any other key keeps it"
        case .confirmDeleteDownload(_, let title): "Delete the downloaded file of \(title)? It stays on the shelf to download again. y delete · any other key keeps it"
        case .confirmUnsubscribe(_, let title): "Unsubscribe from \(title) — keep its downloaded issues? y keep · n remove them · Esc cancel"
        case .searchIssue: "Search this issue: "
        case .searchLibrary: "Search all issues: "
        case .searchCatalog: "Search the catalog: "
        case .link: "Open link: "
        case .importOPML: "Import OPML from: "
        case .exportOPML: "Export OPML to: "
        case .loginUser(let request): "\(request.serverText) asks for a login. User: "
        case .loginPassword(let request, let user): "Password for \(user) at \(request.host): "
        case .confirmSaveLogin(let request, let credentials):
            "Save this login for \(credentials.user) at \(request.host)? y save it · n only until Newsstand quits · Esc cancel"
        case .bookmarkName: "Bookmark name: "
        case .note: "Note: "
        case .confirmDeleteMark(let mark): "Delete \(mark.description)? y delete · any other key keeps it"
        case .confirmProgressSync(let offer): offer.question
        case .accountURL: "Account's API URL (FreshRSS: https://host/api/greader.php): "
        case .accountUser: "User: "
        case .accountPassword(_, let user): "Password for \(user) (FreshRSS: the API password): "
        case .confirmRemoveAccount(let url, let user):
            "Remove the account \(user) at \(url)? Its subscriptions stay as feeds of your own. y remove · any other key keeps it"
        case .chooseSubscriptionAccount(let url, let accounts):
            "Subscribe to \(URLCredentials.split(url).address) on which account? "
                + accounts.prefix(9).enumerated().map { "\($0.offset + 1) \($0.element.user) at \(AccountChoiceText.server($0.element.url))" }.joined(separator: " · ")
                + " · 0 a feed of your own · Esc cancel"
        }
    }

    /// Whether the prompt takes typed text (otherwise it waits for one key).
    public var takesText: Bool {
        switch kind {
        case .confirmUnsubscribe, .confirmSaveLogin, .confirmRemoveTitle, .confirmDeleteMark, .confirmDeleteDownload, .confirmProgressSync, .confirmRemoveAccount,
             .chooseSubscriptionAccount: false
        default: true
        }
    }

    /// Whether the prompt is part of giving a login.
    public var isLogin: Bool {
        switch kind {
        case .loginUser, .loginPassword, .confirmSaveLogin: true
        default: false
        }
    }

    /// What the field shows for the typed text, character for character: a password as `•`s, a feed URL with
    /// the password of its user information masked, anything else as typed.
    public var shownText: String {
        switch kind {
        case .loginPassword, .accountPassword: String(repeating: "•", count: text.count)
        case .addSubscription, .accountURL: URLCredentials.maskingPassword(in: text)
        default: text
        }
    }

    /// The prompt as the screen shows it: never a password.
    public var description: String { label + (takesText ? shownText : "") }

    public var debugDescription: String { description }

    /// Whether `character` may be typed here: a link number takes up to six digits.
    func accepts(_ character: Character) -> Bool {
        if kind == .link { return character.isASCII && character.isNumber && text.count < 6 }
        return text.count < 500
    }
}

/// How the account choice names a server: its host and port.
enum AccountChoiceText {
    static func server(_ url: URL) -> String {
        (url.host ?? url.absoluteString) + (url.port.map { ":\($0)" } ?? "")
    }
}

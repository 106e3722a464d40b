import NewsstandCore

/// The accounts screen (`A` on the subscriptions screen): accounts on feed servers, the list as the runner reads it;
/// adding one (its URL, user and password asked on the bottom line, the password never shown) and removing one.
public struct AccountsScreen: ScreenModel {
    /// nil while they load.
    public var accounts: [AccountSummary]?
    public var cursor: ListCursor

    public init(accounts: [AccountSummary]? = nil, cursor: ListCursor = ListCursor()) {
        self.accounts = accounts
        self.cursor = cursor
    }

    public var selected: AccountSummary? {
        guard let accounts, accounts.indices.contains(cursor.selection) else { return nil }
        return accounts[cursor.selection]
    }

    public var kind: ScreenKind { .accounts }
    public var screen: Screen { .accounts(self) }

    public mutating func handle(_ command: Command, key: Key, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        if cursor.apply(command, count: accounts?.count ?? 0, page: Self.layout(in: body).page) { return .stay() }
        switch command {
        case .addAccount:
            shared.prompt = Prompt(.accountURL)
        case .removeAccount:
            guard let selected else { return .stay() }
            shared.prompt = Prompt(.confirmRemoveAccount(url: selected.account.url.absoluteString, user: selected.account.user))
        case .back:
            return .pop()
        default:
            break
        }
        return .stay()
    }

    public mutating func receive(_ message: Message, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        guard case .accountsLoaded(let list) = message else { return .stay() }
        accounts = list
        cursor.keepVisible(count: list.count, page: Self.layout(in: body).page)
        return .stay()
    }

    public mutating func fit(body: Rect, shared: inout SharedState) -> [Effect] {
        cursor.keepVisible(count: accounts?.count ?? 0, page: Self.layout(in: body).page)
        return []
    }

    public func render(_ shared: SharedState, in body: Rect, theme: Theme, into buffer: inout CellBuffer) -> String {
        Self.render(self, in: body, theme: theme, into: &buffer)
        return accounts.map { Self.listPosition(cursor, count: $0.count) } ?? ""
    }

    public func readingCursor(_ shared: SharedState, in body: Rect) -> (x: Int, y: Int) { Self.row(Self.layout(in: body), cursor, in: body) }
}

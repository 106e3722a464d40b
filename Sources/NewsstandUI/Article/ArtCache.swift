import NewsstandImaging

/// Pictures drawn as text art, by the request they answer: the art that came back, what was asked for (so each
/// picture is asked for once) and what could not be drawn. The shelf's covers and every article's pictures keep
/// one each.
public struct ArtCache<Request: Hashable & Sendable>: Equatable, Sendable {
    private var art: [Request: TextArt] = [:]
    /// Asked for and not forgotten: answered, failed or still awaited.
    public private(set) var requested: Set<Request> = []
    /// Could not be drawn (whoever shows it keeps a placeholder).
    public private(set) var failed: Set<Request> = []

    public init() {}

    /// The art drawn for `request`, once it came.
    public subscript(request: Request) -> TextArt? {
        get { art[request] }
        set { art[request] = newValue }
    }

    /// How many pictures are drawn.
    public var count: Int { art.count }

    public func hasFailed(_ request: Request) -> Bool { failed.contains(request) }

    /// Of `wanted`, those never asked for (each once, in their order), now noted as asked for.
    public mutating func ask(for wanted: some Sequence<Request>) -> [Request] {
        var asked: [Request] = []
        for request in wanted where !requested.contains(request) {
            requested.insert(request)
            asked.append(request)
        }
        return asked
    }

    /// Keeps the answer to a request: its art, or that it could not be drawn.
    public mutating func receive<Failure: Error>(_ request: Request, _ result: Result<TextArt, Failure>) {
        switch result {
        case .success(let drawn): art[request] = drawn
        case .failure: noteFailed(request)
        }
    }

    /// Notes that `request` could not be drawn.
    public mutating func noteFailed(_ request: Request) { failed.insert(request) }

    /// Forgets everything about the requests that `keep` refuses (they are asked for again if wanted again).
    public mutating func keep(where keep: (Request) -> Bool) {
        art = art.filter { keep($0.key) }
        requested = requested.filter(keep)
        failed = failed.filter(keep)
    }

    /// Asks again for the matching requests (a picture that may now be drawn), keeping their art until the new one comes.
    public mutating func askAgain(where matches: (Request) -> Bool) {
        requested = requested.filter { !matches($0) }
        failed = failed.filter { !matches($0) }
    }
}

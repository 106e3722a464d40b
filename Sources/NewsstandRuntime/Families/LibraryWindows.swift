import Foundation
import NewsstandCore
import NewsstandUI
import Synchronization

/// The library's overview and shelf windows, on a queue of their own so a keypress never waits behind slower work;
/// also notices a library changed by another process (the command line) and reloads it.
final class LibraryWindows: EffectFamily {
    private let services: RuntimeServices
    private let queue = DispatchQueue(label: "newsstand.library", qos: .userInteractive)
    /// The last `externalChangeCounter` seen.
    private let lastExternalChange = Mutex<Int64?>(nil)
    private let readAhead = Mutex(ReadAhead())

    /// The start-up shelf's window, read right after the first overview (`anticipate`).
    private struct ReadAhead {
        /// Works out the request the interface will make for its shown shelf once it has the overview.
        var anticipation: (@Sendable (LibraryOverview) -> IssueWindowRequest?)?
        /// Only the first overview is read ahead of: later ones find the interface in a state the anticipation did not see.
        var overviewSent = false
        /// The request whose window was read ahead and sent: the interface's own request for it is not read again. Only
        /// the next `loadIssues` can be that request (it is the first the overview brings), so that one clears it.
        var request: IssueWindowRequest?
    }

    init(services: RuntimeServices) {
        self.services = services
    }

    func perform(_ effect: Effect) {
        let services = services
        switch effect {
        case .loadLibrary:
            reload()
        case .loadIssues(let request):
            queue.async {
                if self.readAhead.withLock({ $0.request.take() }) == request { return }
                guard let window = try? services.loader.window(request) else { return }
                StartupTrace.mark("shelf window read")
                services.send(.issuesLoaded(window, selecting: request.selecting))
            }
        case .loadUnfinishedDownloads:
            queue.async {
                if let issues = try? services.store.unfinishedDownloads() { services.send(.unfinishedDownloadsLoaded(issues)) }
            }
        case .lookUpIssues(let ids):
            queue.async {
                if let issues = try? services.store.issues(ids: ids) { services.send(.issuesLookedUp(issues)) }
            }
        case .reloadLibraryIfChangedElsewhere:
            queue.async {
                guard let counter = try? services.store.externalChangeCounter() else { return }
                let previous = self.lastExternalChange.withLock { last -> Int64?? in
                    guard counter != last else { return .none }
                    defer { last = counter }
                    return .some(last)
                }
                // The first look only notes the counter; a change after it reloads.
                if case .some(.some) = previous { services.sendLibrary() }
            }
        default:
            break
        }
    }

    /// Sends the library's overview again, from this family's queue.
    func reload() {
        queue.async {
            let overview = self.services.sendLibrary()
            let anticipation = self.readAhead.withLock { readAhead in
                readAhead.overviewSent = true
                return readAhead.anticipation.take()
            }
            guard let overview, let request = anticipation?(overview), let window = try? self.services.loader.window(request) else { return }
            StartupTrace.mark("shelf window read ahead")
            self.readAhead.withLock { $0.request = request }
            self.services.send(.issuesReadAhead(request, window))
        }
    }

    /// Has the first overview followed at once by the shown shelf's window, its request worked out by `request` from the
    /// overview (unless that overview was already sent). The first frame waits for the window: read here, it does not
    /// wait for the overview to reach the interface and the request to come back.
    func anticipate(_ request: @escaping @Sendable (LibraryOverview) -> IssueWindowRequest?) {
        readAhead.withLock { if !$0.overviewSent { $0.anticipation = request } }
    }
}

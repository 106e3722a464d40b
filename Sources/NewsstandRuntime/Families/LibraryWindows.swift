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
        queue.async { self.services.sendLibrary() }
    }
}

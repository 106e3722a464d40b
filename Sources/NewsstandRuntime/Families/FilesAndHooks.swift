import Foundation
import NewsstandContent
import NewsstandCore
import NewsstandUI

/// Files the user names and programs the config file names: OPML imported and exported, links and media handed to
/// `browser` or `player` (else the system opener), and `notify-program` run when a refresh brought new issues.
final class FilesAndHooks: EffectFamily {
    private let services: RuntimeServices
    /// OPML files, one at a time.
    private let queue = DispatchQueue(label: "newsstand.files", qos: .utility)
    /// Programs being watched: each on its own thread, as a browser may take seconds to fail.
    private let programs = DispatchQueue(label: "newsstand.hooks", qos: .utility, attributes: .concurrent)

    init(services: RuntimeServices) {
        self.services = services
    }

    func perform(_ effect: Effect) {
        let services = services
        let configuration = services.configuration
        switch effect {
        case .importOPML(let path):
            queue.async {
                services.report(self.importOPML(from: URL(fileURLWithPath: SubscriptionURL.expandingHome(path))))
                services.sendLibrary()
            }
        case .exportOPML(let path):
            queue.async {
                let file = URL(fileURLWithPath: SubscriptionURL.expandingHome(path))
                do {
                    try Data(try OPMLImport.export(store: services.store).xml().utf8).write(to: file, options: .atomic)
                    services.report(.opmlExported(path: file.path))
                } catch {
                    services.report(.opmlNotExported(path: file.path, reason: error.localizedDescription))
                }
            }
        case .openLink(let url):
            programs.async { self.open(url, with: configuration.browser, role: "the browser", setting: "browser") }
        case .playMedia(let url):
            programs.async {
                if configuration.player == nil {
                    self.open(url, with: configuration.browser, role: "the browser", setting: "browser")
                } else {
                    self.open(url, with: configuration.player, role: "the player", setting: "player")
                }
            }
        default:
            break
        }
    }

    /// Runs `notify-program` when a refresh brought new issues; a failure is reported on the status line.
    /// Synchronous: called on the refresh queue.
    func notify(_ outcomes: [PublicationRefresher.Outcome]) {
        guard let command = services.configuration.notifyProgram, let notice = NewIssuesNotice(outcomes: outcomes, store: services.store) else { return }
        if let failure = HookRunner.notify(command, notice) {
            services.report(.hookFailed(failure.description))
        }
    }

    /// Subscribes to the feeds of an OPML file; says how many, and which could not be added.
    private func importOPML(from file: URL) -> RuntimeReport {
        do {
            guard let data = FileManager.default.contents(atPath: file.path) else { throw CatalogError("cannot read \(file.path)") }
            let result = try OPMLImport.run(try OPMLDocument.parse(data), store: services.store, credentials: services.credentialStore,
                                            client: services.client)
            return .opmlImported(summary: result.summary, failures: result.failures)
        } catch {
            return .opmlNotImported(file: file.lastPathComponent, reason: "\(error)")
        }
    }

    /// Hands a URL to the program configured for it (`browser`, `player`), else the system opener, watching it for a
    /// moment so that a failure is reported in plain words.
    private func open(_ url: URL, with command: HookCommand?, role: String, setting: String) {
        let failure: HookRunner.Failure?
        if let command {
            failure = HookRunner.run(command.invocation(for: url), role: role, wait: .watch(seconds: HookRunner.openerWatch))
                .map { HookRunner.Failure(description: "\($0) (\(setting) in the config file)") }
        } else {
            failure = HookRunner.run(("xdg-open", [url.absoluteString]), role: "the system opener", wait: .watch(seconds: HookRunner.openerWatch))
        }
        if let failure { services.send(.linkOpened(url, failure: failure.description)) }
    }
}

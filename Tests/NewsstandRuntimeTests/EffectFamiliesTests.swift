import Foundation
import XCTest
import LocalHTTPServer
import NewsstandCore
import NewsstandTestSupport
import NewsstandUI
@testable import NewsstandRuntime

/// The runner hands each effect to its family, each on a queue of its own: a server that stops answering holds up
/// only the work waiting on it, never the library, the headlines, the storage figures or the accounts.
final class EffectFamiliesTests: XCTestCase {
    func testAServerThatStopsAnsweringHoldsUpOnlyItsOwnFamily() throws {
        let library = try TemporaryLibrary(for: self)
        let server = LocalHTTPServer()
        try server.start()
        addTeardownBlock { server.stop() }
        server.setResource("/catalog.xml", data: Data(String(repeating: "<feed>", count: 100).utf8), contentType: "application/atom+xml")
        server.setResource("/posts/sing", data: Data(String(repeating: "<p>kettles</p>", count: 100).utf8), contentType: "text/html")
        var faults = FaultPlan()
        faults.stallAfterBytes = 10
        server.faults = faults
        let link = server.url(for: "/posts/sing")
        let publication = try library.store.addPublication(title: "Kettle Blog", feedURL: server.url(for: "/blog.rss"))
        try library.store.replaceHeadlines([Headline(title: "Why kettles sing", link: link)], publicationID: publication.id)
        let inbox = MessageInbox()
        let runner = EffectRunner(store: library.store, paths: library.paths) { inbox.append($0) }

        // Work that waits on the stalled server: a catalog page, a whole article.
        runner.perform([.loadCatalogPage(server.url(for: "/catalog.xml")),
                        .fetchHeadlineArticle(publicationID: publication.id, index: 0, link: link)])
        // Work of other families, asked for after it.
        runner.perform([.loadLibrary, .loadHeadlines(publicationID: publication.id), .measureStorage, .loadAccounts])

        let deadline = Date().addingTimeInterval(10)
        func answered() -> (library: Bool, headlines: Bool, storage: Bool, accounts: Bool) {
            var seen = (library: false, headlines: false, storage: false, accounts: false)
            for message in inbox.all {
                switch message {
                case .libraryLoaded: seen.library = true
                case .headlinesLoaded(_, .success(let headlines)): seen.headlines = headlines.map(\.title) == ["Why kettles sing"]
                case .storageMeasured: seen.storage = true
                case .accountsLoaded: seen.accounts = true
                default: break
                }
            }
            return seen
        }
        while answered() != (true, true, true, true), Date() < deadline { usleep(10_000) }
        XCTAssertTrue(answered() == (true, true, true, true), "every other family answered: \(answered())")
        XCTAssertFalse(inbox.all.contains {
            switch $0 {
            case .catalogPageLoaded, .headlineArticleFetched: true
            default: false
            }
        }, "the stalled server's work is still waiting (else this test shows nothing)")
    }
}

import Foundation
import LocalHTTPServer
import NewsstandCore

/// `--demo`: a throwaway library in a temporary folder, subscribed to the sample library served
/// over HTTP on 127.0.0.1 at a throttled rate, so progress bars can be watched.
enum DemoMode {
    /// Slow enough that a sample issue takes a few seconds: the progress bars are what the demo is for.
    static let bytesPerSecond = 48 * 1024

    static func prepare(_ environment: [String: String]) throws -> ([String: String], LocalHTTPServer) {
        guard let sample = ResourceLocator.sampleLibrary(environment) else {
            throw CommandFailure("--demo needs the SampleLibrary folder (set NEWSSTAND_SAMPLE_LIBRARY)")
        }
        let server = LocalHTTPServer(root: sample)
        server.bytesPerSecond = bytesPerSecond
        try server.start()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-demo-\(getpid())", isDirectory: true)
        var demoEnvironment = environment
        demoEnvironment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        demoEnvironment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        let context = try LibraryContext.open(environment: demoEnvironment.merging(["NEWSSTAND_SAMPLE_LIBRARY": "/nonexistent"]) { $1 })
        try context.store.setSetting(LibraryContext.sampleOfferedSetting, to: "yes")
        _ = try PublicationRefresher(store: context.store, client: context.client).subscribe(to: server.url(for: "catalog.plist"))
        context.store.close()
        return (demoEnvironment, server)
    }
}

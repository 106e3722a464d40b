import Foundation
import LocalHTTPServer

/// Optional case (`--downloads`): how fast `curl` fetches a 50 MB file of random bytes from an
/// unthrottled `LocalHTTPServer` on 127.0.0.1. This is only the ceiling the server and loopback
/// allow, recorded as the baseline for a later benchmark of Newsstand's own downloads.
struct DownloadBaseline {
    var megabytes = 50
    var runs = 3

    func run() throws {
        var table = ResultTable(title: "Download baseline: curl ← LocalHTTPServer (unthrottled, 127.0.0.1)")
        guard let curl = ChildProcess.which("curl") else {
            table.note("curl not installed; skipped")
            table.print()
            return
        }
        let folder = try TemporaryFolder(prefix: "newsstand-bench-downloads")
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("random.bin")
        progress("writing \(megabytes) MB of random bytes")
        try writeRandomFile(file, bytes: megabytes << 20)

        let server = LocalHTTPServer(root: folder.url)
        try server.start()
        defer { server.stop() }
        let url = server.url(for: "random.bin").absoluteString
        progress("fetching it \(runs) times with curl")
        var times: [Double] = []
        for _ in 0..<runs {
            let outcome = try ChildProcess.run(curl, ["-s", "-f", "-o", "/dev/null", url])
            guard outcome.status == 0 else { throw ChildProcess.Failure(description: "curl failed with status \(outcome.status)") }
            times.append(MonotonicClock.seconds(from: outcome.spawnedAt, to: outcome.exitedAt))
        }
        let statistics = Statistics(times)
        let size = Double(megabytes << 20)
        table.add("curl -s -o /dev/null, \(megabytes) MB", statistics, format: Format.duration,
                  notes: String(format: "%.0f MB/s at the median, %.0f MB/s at best", size / 1_048_576 / statistics.median, size / 1_048_576 / statistics.min))
        table.note("baseline for a later benchmark of DownloadQueue; times include starting curl")
        table.print()
    }

    private func writeRandomFile(_ file: URL, bytes: Int) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw ChildProcess.Failure(description: "cannot create \(file.path)")
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        var generator = SystemRandomNumberGenerator()
        let chunk = 1 << 20
        for _ in 0..<(bytes / chunk) {
            var words = [UInt64](repeating: 0, count: chunk / 8)
            for index in words.indices { words[index] = generator.next() }
            try handle.write(contentsOf: words.withUnsafeBytes { Data($0) })
        }
    }
}

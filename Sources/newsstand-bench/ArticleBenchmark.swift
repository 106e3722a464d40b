import CLibXML2
import Foundation
import NewsstandContent

/// Case `articles`: `ArticleExtractor` over the shared Readability pages (`../shared/corpora/readability`):
/// the time a page takes (each page's median of `repetitions` runs; then the median and p99 over pages),
/// megabytes of HTML a second, the peak resident memory, and the word F1 of each page's text against the
/// article Readability gives (mean and median). When a python3 with `readability-lxml` and `trafilatura`
/// is found (`.build/bench-venv`, made by `make bench`, or any on PATH), they run on the same pages in the
/// same run, timed inside Python (start-up excluded), and are scored the same way; the table says how many
/// times faster than the faster peer the extractor is (medians and means) and whether that meets the
/// 10× target. A row times libxml2's HTML parse alone (the floor under the extractor's own work). Every
/// time is also taken as the thread's CPU time (for the peers too), which other work on a shared machine
/// disturbs less than the elapsed time the table shows.
/// `NEWSSTAND_ARTICLE_DUMP=folder` writes each page's whole `ExtractedArticle` there (to compare
/// the output of two builds).
struct ArticleBenchmark {
    var repetitions = 5
    var peerRepetitions = 3
    /// How many times faster than the faster peer the extractor should be.
    static let targetRatio = 10.0

    struct PageScore {
        var seconds: Double
        /// The thread's CPU time (less disturbed than `seconds` by other work on a shared machine).
        var cpuSeconds: Double
        var f1: Double
    }

    /// The calling thread's CPU time in seconds.
    static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    func run() throws {
        guard let corpora = RepositoryResources.corpora else {
            throw ChildProcess.Failure(description: "the shared corpora (../shared/corpora) were not found; set NEWSSTAND_CORPORA")
        }
        let root = corpora.appendingPathComponent("readability", isDirectory: true)
        let pages = try FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: nil)
            .filter { FileManager.default.fileExists(atPath: $0.appendingPathComponent("source.html").path) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        guard !pages.isEmpty else { throw ChildProcess.Failure(description: "no pages in \(root.path)") }
        let sources = try pages.map { try Data(contentsOf: $0.appendingPathComponent("source.html")) }
        let expected = try pages.map { ArticleWordScore.text(ofHTML: try Data(contentsOf: $0.appendingPathComponent("expected.html"))) }
        let totalBytes = sources.reduce(0) { $0 + $1.count }
        let peers = Self.peerPython()
        progress("extracting \(pages.count) articles" + (peers == nil ? "" : ", and with readability-lxml and trafilatura"))

        let pageURL = URL(string: "http://fakehost/test/page.html")
        let peakReset = ProcessMemory.resetPeakResident()
        let residentBefore = ProcessMemory.residentBytes()
        var ours: [PageScore] = []
        var articles: [ExtractedArticle] = []
        for (index, source) in sources.enumerated() {
            var times: [Double] = []
            var cpuTimes: [Double] = []
            var extracted = ExtractedArticle()
            for _ in 0..<repetitions {
                let cpuStart = Self.threadCPUTime()
                let (article, seconds) = MonotonicClock.measure { ArticleExtractor.extract(from: source, url: pageURL) }
                cpuTimes.append(Self.threadCPUTime() - cpuStart)
                times.append(seconds)
                extracted = article
            }
            articles.append(extracted)
            ours.append(PageScore(seconds: Statistics(times).median, cpuSeconds: Statistics(cpuTimes).median,
                                  f1: ArticleWordScore(extracted: extracted.text, expected: expected[index]).f1))
        }
        let peak = ProcessMemory.peakResidentBytes()
        if let folder = ProcessInfo.processInfo.environment["NEWSSTAND_ARTICLE_DUMP"], !folder.isEmpty {
            try Self.dump(articles, pages: pages, into: URL(fileURLWithPath: folder, isDirectory: true))
        }
        let parseTimes = sources.map { source in
            Statistics((0..<repetitions).map { _ in MonotonicClock.measure { Self.parseOnly(source) }.1 }).median
        }
        var table = ResultTable(title: "Article extraction: \(pages.count) pages of Readability's tests (\(Format.megabytes(Double(totalBytes))) of HTML)")
        let ourStatistics = Statistics(ours.map(\.seconds))
        var notes = Self.summary(ours, bytes: totalBytes)
        if let peak {
            notes += "; peak RSS \(Format.megabytes(Double(peak)))"
            if peakReset, let residentBefore { notes += " (+\(Format.megabytes(Double(max(0, peak - residentBefore)))) while extracting)" }
        }
        table.add("ArticleExtractor", ourStatistics, showP99: true, notes: notes)
        let parseStatistics = Statistics(parseTimes)
        table.add("  libxml2 parse only", parseStatistics, showP99: true,
                  notes: String(format: "mean %@; %.0f%% of the extractor's total time; %.1f MB/s",
                                Format.duration(parseStatistics.mean), 100 * parseTimes.reduce(0, +) / ours.reduce(0) { $0 + $1.seconds },
                                Double(totalBytes) / 1_048_576 / parseTimes.reduce(0, +)))
        var fasterPeer: (name: String, statistics: Statistics, cpu: Statistics)?
        let ourCPU = Statistics(ours.map(\.cpuSeconds))
        var cpuNotes = ["ArticleExtractor median \(Format.duration(ourCPU.median)), mean \(Format.duration(ourCPU.mean))"]
        if let peers {
            for peer in ["readability-lxml", "trafilatura"] {
                guard let results = try Self.timePeer(peer, python: peers, pages: pages, repetitions: peerRepetitions) else {
                    table.note("\(peer) failed to run")
                    continue
                }
                let scores = results.enumerated().map {
                    PageScore(seconds: $0.element.seconds, cpuSeconds: $0.element.cpuSeconds,
                              f1: ArticleWordScore(extracted: $0.element.text, expected: expected[$0.offset]).f1)
                }
                let statistics = Statistics(scores.map(\.seconds))
                let cpu = Statistics(scores.map(\.cpuSeconds))
                cpuNotes.append("\(peer) median \(Format.duration(cpu.median)), mean \(Format.duration(cpu.mean))")
                table.add("  \(peer)", statistics, showP99: true, notes: Self.summary(scores, bytes: totalBytes)
                          + "; ArticleExtractor is \(Format.ratio(statistics.median / ourStatistics.median)) as fast (medians), "
                          + "\(Format.ratio(statistics.mean / ourStatistics.mean)) (means)")
                if fasterPeer == nil || statistics.median < fasterPeer!.statistics.median { fasterPeer = (peer, statistics, cpu) }
            }
        } else {
            table.note("readability-lxml and trafilatura not found (make bench installs them in .build/bench-venv): no comparison")
        }
        table.note("time: each page's median of \(repetitions) extractions (peers: \(peerRepetitions)); p99 and max over pages; F1: words of the text against expected.html's")
        table.note("ArticleExtractor: mean \(Format.duration(ourStatistics.mean)) a page")
        table.note("CPU time a page (the thread's; each page's median, then over pages): " + cpuNotes.joined(separator: "; "))
        if let (name, statistics, cpu) = fasterPeer {
            let medianRatio = statistics.median / ourStatistics.median
            let meanRatio = statistics.mean / ourStatistics.mean
            let met = min(medianRatio, meanRatio) >= Self.targetRatio
            table.note("against the faster peer (\(name)): \(Format.ratio(medianRatio)) as fast by medians, \(Format.ratio(meanRatio)) by means "
                       + "(CPU time: \(Format.ratio(cpu.median / ourCPU.median)), \(Format.ratio(cpu.mean / ourCPU.mean))); "
                       + "the \(Format.ratio(Self.targetRatio)) target is \(met ? "met" : "not met")")
        }
        table.print()
    }

    /// libxml2's HTML parse of a page alone, with the options the extractor uses; the document is freed.
    static func parseOnly(_ data: Data) {
        let options = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
                            | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue | XML_PARSE_HUGE.rawValue)
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self),
                  let document = htmlReadMemory(base, Int32(buffer.count), nil, nil, options) else { return }
            xmlFreeDoc(document)
        }
    }

    /// Each page's extracted article, whole, in `folder/PAGE.txt`.
    static func dump(_ articles: [ExtractedArticle], pages: [URL], into folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (article, page) in zip(articles, pages) {
            var text = ""
            Swift.dump(article, to: &text)
            try Data(text.utf8).write(to: folder.appendingPathComponent(page.lastPathComponent + ".txt"))
        }
    }

    private static func summary(_ scores: [PageScore], bytes: Int) -> String {
        let f1 = Statistics(scores.map(\.f1))
        let total = scores.reduce(0) { $0 + $1.seconds }
        return String(format: "word F1 mean %.3f, median %.3f; %.1f MB/s", f1.mean, f1.median, Double(bytes) / 1_048_576 / total)
    }

    /// A python3 that imports both peers: `.build/bench-venv`'s, else the first on PATH.
    static func peerPython() -> String? {
        var candidates: [String] = []
        if let venv = RepositoryResources.locate(".build/bench-venv", variable: "NEWSSTAND_BENCH_VENV", marker: "bin/python3") {
            candidates.append(venv.appendingPathComponent("bin/python3").path)
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        candidates += path.split(separator: ":").map { "\($0)/python3" }
        for python in candidates where access(python, X_OK) == 0 {
            if let outcome = try? ChildProcess.run(python, ["-c", "import readability, trafilatura"], quiet: true), outcome.status == 0 {
                return python
            }
        }
        return nil
    }

    /// Each page's median time and text from a peer, timed inside Python.
    static func timePeer(_ peer: String, python: String, pages: [URL], repetitions: Int) throws -> [(seconds: Double, cpuSeconds: Double, text: String)]? {
        let script = """
            import sys, time, json
            peer, runs = sys.argv[1], int(sys.argv[2])
            if peer == "readability-lxml":
                from readability import Document
                import lxml.html
                def extract(html):
                    summary = Document(html).summary(html_partial=True)
                    return lxml.html.fromstring(summary).text_content() if summary.strip() else ""
            else:
                import trafilatura
                def extract(html):
                    return trafilatura.extract(html, url="http://fakehost/test/page.html") or ""
            for path in sys.argv[3:]:
                html = open(path, "rb").read().decode("utf-8", "replace")
                times = []
                cpu = []
                text = ""
                for _ in range(runs):
                    start, cpu_start = time.perf_counter(), time.thread_time()
                    try:
                        text = extract(html)
                    except Exception:
                        text = ""
                    times.append(time.perf_counter() - start)
                    cpu.append(time.thread_time() - cpu_start)
                times.sort()
                cpu.sort()
                print(json.dumps({"seconds": times[len(times) // 2], "cpu": cpu[len(cpu) // 2], "text": text}))
            """
        let files = pages.map { $0.appendingPathComponent("source.html").path }
        let outcome = try ChildProcess.run(python, ["-c", script, peer, String(repetitions)] + files, quiet: true)
        guard outcome.status == 0 else { return nil }
        var results: [(seconds: Double, cpuSeconds: Double, text: String)] = []
        for line in outcome.output.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let seconds = object["seconds"] as? Double, let text = object["text"] as? String else { return nil }
            results.append((seconds, object["cpu"] as? Double ?? seconds, text))
        }
        return results.count == pages.count ? results : nil
    }
}

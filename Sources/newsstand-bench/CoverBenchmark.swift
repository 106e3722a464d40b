import Foundation
import NewsstandImaging

/// Case 2, cover rendering: each cover of the sample library decoded and drawn as text art at the
/// shelf's thumbnail size (12×8 cells) and a large size (40×30), the way `CoverArtService` does it
/// (JPEGs decoded with a size hint of 4×8 pixels per cell). `chafa` and `jp2a`, when installed, are
/// timed on the same files at the same size for comparison.
struct CoverBenchmark {
    var repetitions = 20
    var toolRepetitions = 5
    var sizes: [(columns: Int, rows: Int)] = [(12, 8), (40, 30)]

    func run() throws {
        var table = ResultTable(title: "Cover rendering: decode + AsciiArtRenderer, median of \(repetitions) per cover")
        guard let folder = RepositoryResources.sampleLibrary?.appendingPathComponent("covers", isDirectory: true) else {
            table.note("SampleLibrary not found (run from the repository, or set NEWSSTAND_SAMPLE_LIBRARY); skipped")
            table.print()
            return
        }
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { ["png", "jpg", "jpeg"].contains($0.pathExtension.lowercased()) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let chafa = ChildProcess.which("chafa")
        let jp2a = ChildProcess.which("jp2a")
        progress("rendering \(files.count) covers at \(sizes.map { "\($0.columns)×\($0.rows)" }.joined(separator: " and "))")

        for size in sizes {
            var all: [Double] = []
            for file in files {
                let data = try Data(contentsOf: file)
                let source = try ImageDecoder.decode(data)
                var times: [Double] = []
                for _ in 0..<repetitions {
                    let (_, seconds) = try MonotonicClock.measure { () throws -> TextArt in
                        let image = try ImageDecoder.decode(data, targetSize: (size.columns * 4, size.rows * 8))
                        return AsciiArtRenderer.render(image, options: AsciiArtOptions(columns: size.columns, rows: size.rows))
                    }
                    times.append(seconds)
                }
                let statistics = Statistics(times)
                all.append(statistics.median)
                var notes = "\(source.width)×\(source.height) \(file.pathExtension.uppercased()), \(data.count / 1024) KB"
                if let chafa {
                    let tool = try toolTime(chafa, ["--size", "\(size.columns)x\(size.rows)", "--symbols", "ascii", "-f", "symbols", file.path])
                    notes += "; chafa \(Format.milliseconds(tool)) (\(Format.ratio(tool / statistics.median)) ours)"
                }
                if let jp2a, ["jpg", "jpeg"].contains(file.pathExtension.lowercased()) {
                    let tool = try toolTime(jp2a, ["--width=\(size.columns)", file.path])
                    notes += "; jp2a \(Format.milliseconds(tool)) (\(Format.ratio(tool / statistics.median)) ours)"
                }
                table.add("\(file.lastPathComponent) at \(size.columns)×\(size.rows)", statistics, format: Format.milliseconds, notes: notes)
            }
            if !all.isEmpty {
                table.add("  all covers at \(size.columns)×\(size.rows)", runs: files.count, median: Format.milliseconds(Statistics(all).median),
                          max: Format.milliseconds(Statistics(all).max), notes: "of the per-cover medians")
            }
        }
        if chafa == nil { table.note("chafa not installed") }
        if jp2a == nil { table.note("jp2a not installed") }
        if chafa != nil || jp2a != nil {
            table.note("tool times are whole processes (median of \(toolRepetitions), start-up included); the ratio is tool time ÷ our median")
        }
        table.print()
    }

    /// Median wall time of running an external tool, output discarded.
    private func toolTime(_ executable: String, _ arguments: [String]) throws -> Double {
        var times: [Double] = []
        for _ in 0..<toolRepetitions {
            let outcome = try ChildProcess.run(executable, arguments, quiet: true)
            times.append(MonotonicClock.seconds(from: outcome.spawnedAt, to: outcome.exitedAt))
        }
        return Statistics(times).median
    }
}

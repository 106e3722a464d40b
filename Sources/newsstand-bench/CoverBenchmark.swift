import Foundation
import NewsstandImaging
import TerminalCamera
import TestPictures

/// Case 2, cover rendering.
///
/// Timing: covers of 600×800, 1200×1600 and 3000×4000 pixels, as JPEG and as PNG, are generated at start-up
/// in a temporary folder from a sample cover (decoded, upscaled bilinearly, re-encoded with libjpeg-turbo at
/// quality 90 and libpng). Each is decoded and drawn in every mode at 40×30 and 120×60 cells, the way
/// `CoverArtService` does it (JPEGs decoded with a size hint of 4×8 pixels per cell). `chafa` and `jp2a`, when
/// installed, run on the same files at the same size in the same run, and the ratio is printed.
///
/// Fidelity: the ASCII art of every sample cover, of the generated `TestPicture`s and of a photograph from the shared
/// corpora, ours, jp2a's and chafa's in the same run, scored by `InkCorrelation` (how the ink follows the light), and
/// again as xterm draws each art in a TrueType face on Xvfb (`TrueTypeArtCamera`), photographed and compared with the picture.
struct CoverBenchmark {
    var sizes: [(columns: Int, rows: Int)] = [(40, 30), (120, 60)]
    var pixelSizes: [(width: Int, height: Int)] = [(600, 800), (1200, 1600), (3000, 4000)]
    var toolRepetitions = 3

    func repetitions(forPixels pixels: Int) -> Int {
        pixels >= 10_000_000 ? 3 : pixels >= 1_500_000 ? 7 : 15
    }

    /// Only the fidelity table (`newsstand-bench fidelity`), not the timing.
    var fidelityOnly = false

    func run() throws {
        guard let folder = RepositoryResources.sampleLibrary?.appendingPathComponent("covers", isDirectory: true) else {
            var table = ResultTable(title: "Cover rendering")
            table.note("SampleLibrary not found (run from the repository, or set NEWSSTAND_SAMPLE_LIBRARY); skipped")
            table.print()
            return
        }
        let samples = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { ["png", "jpg", "jpeg"].contains($0.pathExtension.lowercased()) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let tools = Tools()
        if fidelityOnly { return try fidelity(samples, tools: tools) }
        guard let source = samples.first(where: { $0.lastPathComponent == "2025-autumn.jpg" }) ?? samples.first else { return }
        let temporary = try TemporaryFolder(prefix: "newsstand-bench-covers")
        defer { temporary.remove() }

        progress("generating \(pixelSizes.count * 2) covers from \(source.lastPathComponent)")
        let files = try generateCovers(from: source, into: temporary.url)
        try timing(files, tools: tools)
        try fidelity(samples, tools: tools)
    }

    // MARK: Generated covers

    private func generateCovers(from source: URL, into folder: URL) throws -> [URL] {
        let original = try ImageDecoder.decode(try Data(contentsOf: source))
        var files: [URL] = []
        for size in pixelSizes {
            let picture = size.width == original.width && size.height == original.height
                ? original : Self.bilinear(original, width: size.width, height: size.height)
            let base = folder.appendingPathComponent("cover-\(size.width)x\(size.height)")
            let jpeg = base.appendingPathExtension("jpg"), png = base.appendingPathExtension("png")
            try ImageEncoder.jpeg(picture, quality: 90).write(to: jpeg)
            try ImageEncoder.png(picture).write(to: png)
            files += [jpeg, png]
        }
        return files
    }

    /// Bilinear resize (sRGB samples interpolated directly; good enough to make big test pictures).
    static func bilinear(_ image: RasterImage, width: Int, height: Int) -> RasterImage {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        let sx = Double(image.width) / Double(width), sy = Double(image.height) / Double(height)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let fy = max(0, (Double(y) + 0.5) * sy - 0.5)
                    let y0 = min(image.height - 1, Int(fy)), y1 = min(image.height - 1, y0 + 1)
                    let wy = Float(fy - Double(y0))
                    for x in 0..<width {
                        let fx = max(0, (Double(x) + 0.5) * sx - 0.5)
                        let x0 = min(image.width - 1, Int(fx)), x1 = min(image.width - 1, x0 + 1)
                        let wx = Float(fx - Double(x0))
                        let a = (y0 * image.width + x0) * 4, b = (y0 * image.width + x1) * 4
                        let c = (y1 * image.width + x0) * 4, d = (y1 * image.width + x1) * 4
                        let o = (y * width + x) * 4
                        for k in 0..<4 {
                            let top = Float(src[a + k]) * (1 - wx) + Float(src[b + k]) * wx
                            let bottom = Float(src[c + k]) * (1 - wx) + Float(src[d + k]) * wx
                            dst[o + k] = UInt8(min(255, max(0, top * (1 - wy) + bottom * wy + 0.5)))
                        }
                    }
                }
            }
        }
        return RasterImage(width: width, height: height, pixels: out)
    }

    // MARK: Timing

    private func timing(_ files: [URL], tools: Tools) throws {
        var table = ResultTable(title: "Cover rendering: decode + AsciiArtRenderer per cover, in process (tools: whole processes)")
        for size in sizes {
            for mode in CoverArtMode.allCases {
                progress("timing covers at \(size.columns)×\(size.rows) in \(mode.rawValue)")
                for file in files {
                    let data = try Data(contentsOf: file)
                    let pixels = pixelSize(of: file)
                    let options = AsciiArtOptions(columns: size.columns, rows: size.rows, mode: mode)
                    var times: [Double] = []
                    _ = try ImageDecoder.decode(data, targetSize: (size.columns * 4, size.rows * 8)) // warm-up
                    for _ in 0..<repetitions(forPixels: pixels.width * pixels.height) {
                        let (_, seconds) = try MonotonicClock.measure { () throws -> TextArt in
                            let image = try ImageDecoder.decode(data, targetSize: (size.columns * 4, size.rows * 8))
                            return AsciiArtRenderer.render(image, options: options)
                        }
                        times.append(seconds)
                    }
                    let statistics = Statistics(times)
                    var notes = "\(pixels.width)×\(pixels.height) \(file.pathExtension.uppercased()), \(data.count / 1024) KB"
                    let fit = AsciiArtRenderer.fittedSize(imageWidth: pixels.width, imageHeight: pixels.height, options: options)
                    if let chafa = tools.chafa {
                        var arguments = ["--size", "\(size.columns)x\(size.rows)", "-f", "symbols"]
                        switch mode {
                        case .ascii: arguments += ["--symbols", "ascii", "-c", "none"]
                        case .asciiColor: arguments += ["--symbols", "ascii", "--fg-only", "-c", "full"]
                        case .blocks: arguments += ["--symbols", "vhalf", "-c", "full"]
                        }
                        let tool = try toolTime(chafa, arguments + [file.path])
                        notes += "; chafa \(Format.milliseconds(tool)) (\(Format.ratio(tool / statistics.median)))"
                    }
                    if let jp2a = tools.jp2a, mode != .blocks {
                        let arguments = ["--size=\(fit.columns)x\(fit.rows)"] + (mode == .asciiColor ? ["--colors", "--color-depth=24"] : [])
                        if let tool = try? toolTime(jp2a, arguments + [file.path]) {
                            notes += "; jp2a \(Format.milliseconds(tool)) (\(Format.ratio(tool / statistics.median)))"
                        }
                    }
                    table.add("\(mode.rawValue) \(size.columns)×\(size.rows) \(file.deletingPathExtension().lastPathComponent.dropFirst(6)).\(file.pathExtension)",
                              statistics, format: Format.milliseconds, notes: notes)
                }
            }
        }
        if let chafa = tools.chafa {
            let startUp = try toolTime(chafa, ["--version"])
            table.note("chafa start-up alone (chafa --version): \(Format.milliseconds(startUp)); chafa uses every CPU, ours one thread")
        } else {
            table.note("chafa not installed (make bench installs it)")
        }
        if tools.jp2a == nil { table.note("jp2a not installed (make bench installs it)") }
        table.note("ratio = tool time ÷ our median (above 1 means we are faster); tool times are the median of \(toolRepetitions) whole processes")
        table.note("chafa: --symbols ascii -c none (ascii), --symbols ascii --fg-only -c full (ascii-color), --symbols vhalf -c full (blocks); jp2a: --size=fitted [--colors --color-depth=24]")
        table.print()
    }

    private func pixelSize(of file: URL) -> (width: Int, height: Int) {
        let name = file.deletingPathExtension().lastPathComponent.dropFirst("cover-".count)
        let parts = name.split(separator: "x").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : (0, 0)
    }

    /// Median wall time of running an external tool, output discarded; throws if it fails.
    private func toolTime(_ executable: String, _ arguments: [String]) throws -> Double {
        var times: [Double] = []
        for _ in 0..<toolRepetitions {
            let outcome = try ChildProcess.run(executable, arguments, quiet: true)
            guard outcome.status == 0 else { throw ChildProcess.Failure(description: "\(executable) exited \(outcome.status)") }
            times.append(MonotonicClock.seconds(from: outcome.spawnedAt, to: outcome.exitedAt))
        }
        return Statistics(times).median
    }

    // MARK: Fidelity

    /// A picture measured for fidelity: a file every tool reads, and its pixels.
    private struct FidelityCover {
        let name: String
        let file: URL
        let picture: RasterImage
    }

    /// The sample covers, the generated pictures (`TestPicture`) and a photograph of people from the shared corpora.
    private func fidelityCovers(samples: [URL], folder: URL) throws -> [FidelityCover] {
        var covers = try samples.map { FidelityCover(name: $0.lastPathComponent, file: $0, picture: try ImageDecoder.decode(Data(contentsOf: $0))) }
        for generated in TestPicture.allCases {
            let picture = generated.image()
            let file = folder.appendingPathComponent("\(generated.rawValue).png")
            try ImageEncoder.png(picture).write(to: file)
            covers.append(FidelityCover(name: generated.rawValue, file: file, picture: picture))
        }
        if let photo = RepositoryResources.corpora?.appendingPathComponent("jpeg/jpeg-decoder/reftest/images/rgb.jpg"),
           let data = try? Data(contentsOf: photo) {
            covers.append(FidelityCover(name: "photo (corpora rgb.jpg)", file: photo, picture: try ImageDecoder.decode(data)))
        }
        return covers
    }

    /// Our ASCII art of `cover` at `size`, only the cells the picture fills.
    private func ourArt(_ cover: FidelityCover, size: (columns: Int, rows: Int)) throws -> [String] {
        let options = AsciiArtOptions(columns: size.columns, rows: size.rows)
        let image = try ImageDecoder.decode(Data(contentsOf: cover.file), targetSize: (size.columns * 4, size.rows * 8))
        let art = AsciiArtRenderer.render(image, options: options)
        let fit = AsciiArtRenderer.fittedSize(imageWidth: image.width, imageHeight: image.height, options: options)
        let left = (size.columns - fit.columns) / 2, top = (size.rows - fit.rows) / 2
        return art.lines[top..<(top + fit.rows)].map { String(Array($0)[left..<(left + fit.columns)]) }
    }

    /// A tool's ASCII art of `cover` (escape sequences removed), or nil when it is not installed or fails.
    private func toolArt(_ executable: String?, _ arguments: [String], _ cover: FidelityCover) -> [String]? {
        guard let executable, let outcome = try? ChildProcess.run(executable, arguments + [cover.file.path], quiet: true),
              outcome.status == 0 else { return nil }
        let lines = Fidelity.plainLines(outcome.output)
        return lines.isEmpty ? nil : lines
    }

    private func fidelity(_ samples: [URL], tools: Tools) throws {
        let temporary = try TemporaryFolder(prefix: "newsstand-bench-fidelity")
        defer { temporary.remove() }
        let covers = try fidelityCovers(samples: samples, folder: temporary.url)
        progress("fidelity: ink against light for \(covers.count) covers, ours, jp2a and chafa")
        var rows: [[String]] = []
        var sideBySide: [String] = []
        // The second score: each art as xterm draws it in a TrueType face; nil (with why) when it cannot run here.
        var camera: TrueTypeArtCamera?, cameraProblem: String?
        do { camera = try TrueTypeArtCamera() } catch { cameraProblem = "\(error)" }
        func figure(_ score: InkCorrelation?) -> [String] {
            guard let score else { return ["-", "-"] }
            return [String(format: "%.3f", score.subCell), String(format: "%.3f", score.perCell)]
        }
        /// r per quarter cell of the art as xterm draws it; nil when there is no art or no camera, NaN when it failed.
        func drawn(_ art: [String]?, _ picture: RasterImage) -> Double? {
            guard let art, let camera else { return nil }
            do {
                return try camera.score(art, picture: picture).subCell
            } catch {
                if cameraProblem == nil { cameraProblem = "\(error)" }
                return .nan
            }
        }
        func figure(_ value: Double?) -> String {
            guard let value else { return "-" }
            return value.isNaN ? "failed" : String(format: "%.3f", value)
        }
        for size in sizes {
            for cover in covers {
                let ours = try ourArt(cover, size: size)
                let fit = (columns: ours.first?.count ?? 0, rows: ours.count)
                // Both tools draw for a dark terminal by default, as ours does here.
                let jp2a = toolArt(tools.jp2a, ["--size=\(fit.columns)x\(fit.rows)"], cover)
                let chafa = toolArt(tools.chafa, ["--size", "\(size.columns)x\(size.rows)", "--symbols", "ascii", "-c", "none", "-f", "symbols"], cover)
                let score = { (art: [String]?) in art.map { InkCorrelation(art: $0, picture: cover.picture) } }
                let (our, their1, their2) = (score(ours), score(jp2a), score(chafa))
                // Ours against the better tool, in both columns.
                let bestSub = [their1?.subCell, their2?.subCell].compactMap { $0 }.filter { !$0.isNaN }.max()
                let bestCell = [their1?.perCell, their2?.perCell].compactMap { $0 }.filter { !$0.isNaN }.max()
                var verdict = bestSub == nil ? "" : (our!.subCell >= bestSub! && our!.perCell >= (bestCell ?? -1)) ? "ours ≥ best" : "BELOW the better tool"
                let drawnScores = (drawn(ours, cover.picture), drawn(jp2a, cover.picture), drawn(chafa, cover.picture))
                // The same, drawn by xterm: named when a tool's drawing follows the light better than ours.
                let ahead = [("jp2a", drawnScores.1), ("chafa", drawnScores.2)].filter { tool in
                    guard let their = tool.1, let our = drawnScores.0, !their.isNaN, !our.isNaN else { return false }
                    return their > our
                }.map(\.0)
                if !ahead.isEmpty { verdict += "; in xterm BELOW " + ahead.joined(separator: " and ") }
                rows.append(["\(cover.name) at \(size.columns)×\(size.rows)"] + figure(our) + [figure(drawnScores.0)]
                            + figure(their1) + [figure(drawnScores.1)] + figure(their2) + [figure(drawnScores.2)] + [verdict])
                if cover.name == TestPicture.titleBand.rawValue, size.columns == 40 {
                    sideBySide = Fidelity.sideBySide([("ours", ours), ("jp2a", jp2a ?? []), ("chafa --symbols ascii", chafa ?? [])])
                }
            }
        }
        let header = ["cover", "ours 2×2", "ours cell", "ours xterm", "jp2a 2×2", "jp2a cell", "jp2a xterm", "chafa 2×2", "chafa cell", "chafa xterm", ""]
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        var lines = ["Fidelity: ink against light, Pearson's r (1 = ink rises and falls with the picture's lightness), ASCII on a dark background"]
        for (index, row) in ([header] + rows).enumerated() {
            let cells = row.enumerated().map { column, cell -> String in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 || column == row.count - 1 ? cell + padding : padding + cell
            }
            lines.append(("  " + cells.joined(separator: "  ")).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression))
            if index == 0 { lines.append("  " + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
        }
        lines.append("  * each art re-drawn with an 8×16 DejaVu Sans Mono bitmap (BitmapFont), ink coverage per quarter cell (2×2) and per cell,")
        lines.append("    against the picture's sRGB lightness area-averaged to the same samples (InkCorrelation)")
        lines.append("  * xterm: the same art drawn by xterm -fa '\(TrueTypeArtCamera.face)' -fs \(camera?.pointSize ?? 8) (white on black) on Xvfb, its window")
        lines.append("    photographed with xwd; the screen's lightness against the picture's, both area-averaged in linear light to 2×2 a cell")
        lines.append("    (InkCorrelation(screen:)), r per quarter cell: independent of the bitmap font the renderer matches glyphs against")
        if let cameraProblem { lines.append("  * xterm on Xvfb: \(cameraProblem)" + (camera == nil ? " (make bench installs xterm, xvfb, x11-apps and fonts-dejavu-core)" : "")) }
        lines.append("  * jp2a: --size=our fitted size; chafa: --size=columns×rows --symbols ascii -c none (it fits the picture itself)")
        if tools.chafa == nil { lines.append("  * chafa not installed: no comparison") }
        if tools.jp2a == nil { lines.append("  * jp2a not installed: no comparison") }
        if !sideBySide.isEmpty {
            lines.append("")
            lines.append("The title-band cover at 40×30 (white band with a black masthead, a grey body darkening downwards, a dark disc):")
            lines += sideBySide.map { "  " + $0 }
        }
        print(lines.joined(separator: "\n") + "\n")
        fflush(nil)
    }

    struct Tools {
        let chafa = ChildProcess.which("chafa")
        let jp2a = ChildProcess.which("jp2a")
    }
}

/// Text art from other tools, made comparable with ours.
enum Fidelity {
    /// Lines of a tool's output without escape sequences or carriage returns, padded to equal length.
    static func plainLines(_ output: String) -> [String] {
        let plain = output.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\r", with: "")
        var lines = plain.components(separatedBy: "\n")
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        let width = lines.map(\.count).max() ?? 0
        return lines.map { $0 + String(repeating: " ", count: width - $0.count) }
    }

    /// Arts next to each other under their titles, separated by a gap.
    static func sideBySide(_ arts: [(title: String, lines: [String])]) -> [String] {
        let widths = arts.map { max($0.title.count, $0.lines.map(\.count).max() ?? 0) }
        let height = arts.map(\.lines.count).max() ?? 0
        func padded(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        let titles = arts.indices.map { padded(arts[$0].title, widths[$0]) }.joined(separator: "   ")
        let body = (0..<height).map { row in
            arts.indices.map { padded(row < arts[$0].lines.count ? arts[$0].lines[row] : "", widths[$0]) }.joined(separator: "   ")
        }
        return ([titles] + body).map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
    }
}

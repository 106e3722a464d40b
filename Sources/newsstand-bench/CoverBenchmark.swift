import Foundation
import NewsstandImaging

/// Case 2, cover rendering.
///
/// Timing: covers of 600×800, 1200×1600 and 3000×4000 pixels, as JPEG and as PNG, are generated at start-up
/// in a temporary folder from a sample cover (decoded, upscaled bilinearly, re-encoded with libjpeg-turbo at
/// quality 90 and libpng). Each is decoded and drawn in every mode at 40×30 and 120×60 cells, the way
/// `CoverArtService` does it (JPEGs decoded with a size hint of 4×8 pixels per cell). `chafa` and `jp2a`, when
/// installed, run on the same files at the same size in the same run, and the ratio is printed.
///
/// Fidelity: the ASCII output for every sample cover is re-drawn with an 8×16 bitmap font (`BitmapFont`, in
/// NewsstandImaging, the same glyphs the renderer matches cells against), light ink on black, and compared with
/// the cover itself, area-averaged to the same pixels, by SSIM on luminance. The same is done for
/// `chafa --symbols ascii -c none` output.
struct CoverBenchmark {
    var sizes: [(columns: Int, rows: Int)] = [(40, 30), (120, 60)]
    var pixelSizes: [(width: Int, height: Int)] = [(600, 800), (1200, 1600), (3000, 4000)]
    var toolRepetitions = 3

    func repetitions(forPixels pixels: Int) -> Int {
        pixels >= 10_000_000 ? 3 : pixels >= 1_500_000 ? 7 : 15
    }

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
        guard let source = samples.first(where: { $0.lastPathComponent == "2025-autumn.jpg" }) ?? samples.first else { return }
        let temporary = try TemporaryFolder(prefix: "newsstand-bench-covers")
        defer { temporary.remove() }
        let tools = Tools()

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

    private func fidelity(_ samples: [URL], tools: Tools) throws {
        progress("fidelity: SSIM of the re-drawn ASCII art of \(samples.count) sample covers")
        var rows: [[String]] = []
        for size in sizes {
            var ours: [Double] = [], theirs: [Double] = [], oursCoarse: [Double] = [], theirsCoarse: [Double] = []
            for file in samples {
                let data = try Data(contentsOf: file)
                let full = try ImageDecoder.decode(data)
                let options = AsciiArtOptions(columns: size.columns, rows: size.rows)
                let image = try ImageDecoder.decode(data, targetSize: (size.columns * 4, size.rows * 8))
                let art = AsciiArtRenderer.render(image, options: options)
                let fit = AsciiArtRenderer.fittedSize(imageWidth: image.width, imageHeight: image.height, options: options)
                let left = (size.columns - fit.columns) / 2, top = (size.rows - fit.rows) / 2
                let region = art.lines[top..<(top + fit.rows)].map { String(Array($0)[left..<(left + fit.columns)]) }
                let score = Fidelity.ssim(drawing: region, of: full)
                ours.append(score.full)
                oursCoarse.append(score.coarse)
                var row = ["\(file.lastPathComponent) at \(size.columns)×\(size.rows)", String(format: "%.3f", score.full), String(format: "%.3f", score.coarse)]
                if let chafa = tools.chafa {
                    let outcome = try ChildProcess.run(chafa, ["--size", "\(size.columns)x\(size.rows)", "--symbols", "ascii", "-c", "none",
                                                               "-f", "symbols", file.path], quiet: true)
                    let lines = Fidelity.plainLines(outcome.output)
                    let chafaScore = lines.isEmpty ? (.nan, .nan) : Fidelity.ssim(drawing: lines, of: full)
                    theirs.append(chafaScore.full)
                    theirsCoarse.append(chafaScore.coarse)
                    row.append(String(format: "%.3f", chafaScore.full))
                    row.append(String(format: "%.3f", chafaScore.coarse))
                    row.append("\(lines.first?.count ?? 0)×\(lines.count) cells vs our \(fit.columns)×\(fit.rows)")
                } else {
                    row += ["-", "-", ""]
                }
                rows.append(row)
            }
            let mean = { (values: [Double]) in values.isEmpty ? "-" : String(format: "%.3f", values.reduce(0, +) / Double(values.count)) }
            rows.append(["  mean at \(size.columns)×\(size.rows)", mean(ours), mean(oursCoarse), mean(theirs), mean(theirsCoarse), "\(samples.count) covers"])
        }
        let header = ["case", "ours", "ours 4×4", "chafa ascii", "chafa 4×4", "notes"]
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        var lines = ["Fidelity: SSIM (luminance, 8×8 windows) of the ASCII art re-drawn with an 8×16 font vs the cover; 1 is identical"]
        for (index, row) in ([header] + rows).enumerated() {
            let cells = row.enumerated().map { column, cell -> String in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 || column == row.count - 1 ? cell + padding : padding + cell
            }
            lines.append(("  " + cells.joined(separator: "  ")).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression))
            if index == 0 { lines.append("  " + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
        }
        lines.append("  * both drawn light on black; each compared over the cells its picture fills, the cover area-averaged to the same pixels")
        lines.append("  * 4×4: both images area-averaged over 4×4-pixel blocks (2×4 per cell) before SSIM, roughly the view from reading distance")
        if tools.chafa == nil { lines.append("  * chafa not installed: no comparison") }
        print(lines.joined(separator: "\n") + "\n")
        fflush(nil)
    }

    struct Tools {
        let chafa = ChildProcess.which("chafa")
        let jp2a = ChildProcess.which("jp2a")
    }
}

/// Re-draws text art as pixels and scores it against the picture.
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

    /// SSIM between `lines` drawn with `BitmapFont` (ink 255 on 0) and `picture` area-averaged to the same size.
    /// `full`: at the drawing's own pixels; `coarse`: both area-averaged over 4×4-pixel blocks first
    /// (2×4 per cell, roughly what the eye sees at reading distance).
    static func ssim(drawing lines: [String], of picture: RasterImage) -> (full: Double, coarse: Double) {
        let columns = lines.first?.count ?? 0, rows = lines.count
        guard columns > 0, rows > 0 else { return (.nan, .nan) }
        let width = columns * BitmapFont.width, height = rows * BitmapFont.height
        var drawn = [Float](repeating: 0, count: width * height)
        for (row, line) in lines.enumerated() {
            for (column, character) in line.enumerated() where column < columns {
                let glyph = BitmapFont.glyph(character)
                for y in 0..<BitmapFont.height {
                    for x in 0..<BitmapFont.width where glyph[y * BitmapFont.width + x] != 0 {
                        drawn[(row * BitmapFont.height + y) * width + column * BitmapFont.width + x] = 255
                    }
                }
            }
        }
        let scaled = Resampler.areaAverage(picture, width: width, height: height)
        var reference = [Float](repeating: 0, count: width * height)
        func linear(_ value: UInt8) -> Float {
            let c = Float(value) / 255
            return c <= 0.04045 ? c / 12.92 : powf((c + 0.055) / 1.055, 2.4)
        }
        for i in 0..<(width * height) {
            let p = i * 4
            let alpha = Float(scaled.pixels[p + 3]) / 255
            let y = (0.2126 * linear(scaled.pixels[p]) + 0.7152 * linear(scaled.pixels[p + 1]) + 0.0722 * linear(scaled.pixels[p + 2])) * alpha
            reference[i] = (y <= 0.0031308 ? y * 12.92 : 1.055 * powf(y, 1 / 2.4) - 0.055) * 255
        }
        func coarse(_ values: [Float]) -> [Float] {
            let w = width / 4, h = height / 4
            var out = [Float](repeating: 0, count: w * h)
            for y in 0..<height { for x in 0..<width where x / 4 < w && y / 4 < h { out[(y / 4) * w + x / 4] += values[y * width + x] / 16 } }
            return out
        }
        return (structuralSimilarity(reference, drawn, width: width, height: height),
                structuralSimilarity(coarse(reference), coarse(drawn), width: width / 4, height: height / 4))
    }

    /// Mean SSIM over 8×8 windows every 4 pixels (C1 = (0.01·255)², C2 = (0.03·255)²).
    static func structuralSimilarity(_ a: [Float], _ b: [Float], width: Int, height: Int) -> Double {
        let c1 = pow(0.01 * 255.0, 2), c2 = pow(0.03 * 255.0, 2)
        let window = 8, step = 4
        var total = 0.0, count = 0
        var y = 0
        while y + window <= height {
            var x = 0
            while x + window <= width {
                var sa = 0.0, sb = 0.0, saa = 0.0, sbb = 0.0, sab = 0.0
                for dy in 0..<window {
                    let base = (y + dy) * width + x
                    for dx in 0..<window {
                        let va = Double(a[base + dx]), vb = Double(b[base + dx])
                        sa += va; sb += vb; saa += va * va; sbb += vb * vb; sab += va * vb
                    }
                }
                let n = Double(window * window)
                let ma = sa / n, mb = sb / n
                let va = saa / n - ma * ma, vb = sbb / n - mb * mb, cov = sab / n - ma * mb
                total += ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2))
                count += 1
                x += step
            }
            y += step
        }
        return count > 0 ? total / Double(count) : .nan
    }
}

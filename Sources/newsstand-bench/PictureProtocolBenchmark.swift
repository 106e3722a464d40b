import Foundation
import NewsstandImaging
import NewsstandPictures
import NewsstandUI
#if canImport(Glibc)
import Glibc
#endif

/// Terminal pictures: the time to make a cover's picture (decode at the size shown and fit it) and then to encode
/// it and write it out with each protocol — kitty (PNG, base64, 4096-byte chunks), sixel (libsixel, 256 colours)
/// and iTerm2 (PNG, base64) — at a shelf cover's size and the issue page's, for 10 × 20-pixel cells. The bytes are
/// written to /dev/null: what the terminal then does with them is not measured. A kitty picture is sent once and
/// then placed by its cells; sixel and iTerm2 pictures are written again whenever they move.
///
/// Then what the UI thread pays when an issue page with such a cover opens: the backend's picture work for the
/// frame that first shows it (`PictureFrameOutput.frame`, which finds the picture's cells and asks the encoding
/// queue for its bytes; the encoding runs on that queue), and how long after it the picture's bytes are written.
///
/// `chafa`, when installed, makes the same protocol from the same file at the same cells in the same run (whole
/// processes), against our decode + fit + encode + send; its standard input is a pseudo-terminal of 10 × 20-pixel
/// cells, the only way chafa 1.12 takes a cell size, so it draws as many pixels as we do wherever the bench runs.
struct PictureProtocolBenchmark {
    var sizes: [(name: String, columns: Int, rows: Int)] = [("shelf cover", 10, 7), ("issue page", 39, 26)]
    var cell = CellPixelSize(width: 10, height: 20)
    var repetitions = 15
    var toolRepetitions = 3

    func run() throws {
        var table = ResultTable(title: "Terminal pictures: a cover made at the size shown, then encoded and sent per protocol (10×20-pixel cells)")
        guard let file = RepositoryResources.sampleLibrary?.appendingPathComponent("covers/2025-autumn.jpg"),
              let data = FileManager.default.contents(atPath: file.path) else {
            table.note("SampleLibrary not found (run from the repository, or set NEWSSTAND_SAMPLE_LIBRARY); skipped")
            table.print()
            return
        }
        guard let sink = FileHandle(forWritingAtPath: "/dev/null") else { return }
        defer { try? sink.close() }
        let chafa = ChildProcess.which("chafa")
        let terminal = chafa == nil ? nil : CellTerminal.open(cell: cell)
        defer { terminal?.close() }
        for size in sizes {
            progress("timing pictures for a \(size.name) (\(size.columns)×\(size.rows) cells)")
            let target = TextArt.decodingSize(columns: size.columns, rows: size.rows, cellPixels: cell)
            let make = { TerminalPicture(fitting: try ImageDecoder.decode(data, targetSize: target), columns: size.columns, rows: size.rows, cell: cell) }
            var picture: TerminalPicture?
            var makeTimes: [Double] = []
            for _ in 0..<repetitions {
                let (made, seconds) = try MonotonicClock.measure(make)
                picture = made
                makeTimes.append(seconds)
            }
            guard let picture else { continue }
            table.add("\(size.name): decode + fit", Statistics(makeTimes), format: Format.milliseconds,
                      notes: "\(picture.image.width)×\(picture.image.height) px")
            let encoders: [(name: String, chafaFormat: String, encode: (TerminalPicture) throws -> [UInt8])] = [
                ("kitty", "kitty", { try KittyGraphics.transmit($0) }),
                ("sixel", "sixels", { try SixelEncoder.encode($0.image, background: .black) }),
                ("iterm", "iterm", { try ITermImages.inline($0.image, columns: $0.columns, rows: $0.rows) }),
            ]
            for encoder in encoders {
                var times: [Double] = []
                var bytes = 0
                for _ in 0..<repetitions {
                    let (_, seconds) = try MonotonicClock.measure {
                        let output = try encoder.encode(picture)
                        bytes = output.count
                        sink.write(Data(output))
                    }
                    times.append(seconds)
                }
                table.add("\(size.name): encode + send, \(encoder.name)", Statistics(times), format: Format.milliseconds,
                          notes: "\(Format.count(bytes)) bytes")
            }
            for encoder in encoders {
                var times: [Double] = []
                for _ in 0..<repetitions {
                    let (_, seconds) = try MonotonicClock.measure { sink.write(Data(try encoder.encode(try make()))) }
                    times.append(seconds)
                }
                let statistics = Statistics(times)
                var notes = ""
                if let chafa, let terminal {
                    let (tool, output) = try toolTime(chafa, ["-f", encoder.chafaFormat, "--size", "\(size.columns)x\(size.rows)", file.path],
                                                      standardInput: terminal.follower)
                    notes = "chafa \(Format.milliseconds(tool)) (\(Format.ratio(tool / statistics.median))), \(Format.count(output.utf8.count)) bytes"
                        + (Self.pixelSize(ofChafaOutput: output).map { ", \($0) px" } ?? "")
                }
                table.add("\(size.name): all of it, \(encoder.name)", statistics, format: Format.milliseconds, notes: notes)
            }
            if size.name == "issue page" { opening(picture, sink: sink, into: &table) }
        }
        table.note("kitty: sent once per picture, then scrolled and redrawn as cells; sixel and iTerm2: sent again each time a picture moves (the encoded bytes are kept).")
        table.note("all of it = decode + fit + encode + send, timed together")
        table.note("UI thread blocked = the frame that first shows the issue page's cover (120×40 cells), its picture work on the UI thread: "
            + "finding its cells and asking the encoding queue; the encoding runs on that queue (it ran here, 5–13 ms, before); "
            + "wall time, with its own CPU time in the notes (on a busy 2-core machine the encoding thread can take the CPU from it); "
            + "written after = until the next frame writes the ready bytes")
        if let chafa, terminal != nil {
            let (startUp, _) = try toolTime(chafa, ["--version"])
            table.note("chafa start-up alone (chafa --version): \(Format.milliseconds(startUp)); chafa uses every CPU, ours one thread")
            table.note("ratio = chafa's time ÷ our median (above 1 means we are faster); chafa's times are the median of \(toolRepetitions) whole processes")
            table.note("chafa -f kitty|sixels|iterm --size COLSxROWS, its input a pseudo-terminal of 10×20-pixel cells: the same pixels as ours, "
                + "but fitted to whole cells (ours: the whole cell box, the cover centred in it), its sixels a multiple of 6 pixels high; its kitty is raw RGBA and its iTerm2 TIFF, "
                + "both uncompressed where ours are PNG; its sixels use its own quantiser, not libsixel")
        } else {
            table.note(chafa == nil ? "chafa not installed (make bench installs it)" : "no pseudo-terminal for chafa: no comparison")
        }
        table.print()
    }

    /// Opening an issue page with `picture` as its cover, kitty (placeholders) and sixel: how long the frame that
    /// first shows it holds the UI thread, and how long until a frame writes its bytes (a new picture each time).
    private func opening(_ picture: TerminalPicture, sink: FileHandle, into table: inout ResultTable) {
        for (name, kind, placeholders) in [("kitty", PictureProtocol.kitty, true), ("sixel", .sixel, false)] {
            var blocked: [Double] = []
            var working: [Double] = []
            var written: [Double] = []
            for _ in 0..<repetitions {
                var output = PictureFrameOutput(kind, kittyPlaceholders: placeholders, throughTmux: false, background: .black)
                let cover = TerminalPicture(id: TerminalPicture.nextID(), columns: picture.columns, rows: picture.rows, image: picture.image)
                var frame = CellBuffer(width: 120, height: 40)
                frame.placePicture(cover, in: Rect(x: 2, y: 2, width: cover.columns, height: cover.rows))
                let start = DispatchTime.now().uptimeNanoseconds
                let startCPU = Self.threadCPUSeconds()
                let first = output.frame(frame, isFresh: false)
                blocked.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                working.append(Self.threadCPUSeconds() - startCPU)
                sink.write(Data(first.before + first.after))
                output.encoder?.waitUntilIdle()
                let next = output.frame(frame, isFresh: false)
                sink.write(Data(next.before + next.after))
                written.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            table.add("issue page: UI thread blocked on opening, \(name)", Statistics(blocked), format: Format.milliseconds,
                      notes: "its own CPU time \(Format.milliseconds(Statistics(working).median)); "
                        + "written \(Format.milliseconds(Statistics(written).median)) after, off the UI thread")
        }
    }

    /// CPU time the calling thread has used (what it did itself, without the time other threads had the CPU).
    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Median wall time of running an external tool, and its output; throws if it fails.
    private func toolTime(_ executable: String, _ arguments: [String], standardInput: Int32? = nil) throws -> (Double, String) {
        var times: [Double] = []
        var output = ""
        for _ in 0..<toolRepetitions {
            let outcome = try ChildProcess.run(executable, arguments, quiet: true, standardInput: standardInput)
            guard outcome.status == 0 else { throw ChildProcess.Failure(description: "\(executable) exited \(outcome.status)") }
            times.append(MonotonicClock.seconds(from: outcome.spawnedAt, to: outcome.exitedAt))
            output = outcome.output
        }
        return (Statistics(times).median, output)
    }

    /// The picture's pixel size in chafa's kitty (`s=W,v=H`) or sixel (`"1;1;W;H`) header; nil for iTerm2.
    private static func pixelSize(ofChafaOutput output: String) -> String? {
        guard let match = output.prefix(200).firstMatch(of: /(?:s=|"1;1;)(\d+)[,;](?:v=)?(\d+)/) else { return nil }
        return "\(match.1)×\(match.2)"
    }
}

/// A pseudo-terminal that says it is 80 × 24 cells of `cell` pixels (TIOCSWINSZ); chafa reads its cell size
/// from its terminal only (1.12 has no option for it), so it is given this one as standard input.
private struct CellTerminal {
    let leader: Int32, follower: Int32

    static func open(cell: CellPixelSize) -> CellTerminal? {
        var leader: Int32 = -1, follower: Int32 = -1
        var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: UInt16(80 * cell.width), ws_ypixel: UInt16(24 * cell.height))
        guard openpty(&leader, &follower, nil, nil, &size) == 0 else { return nil }
        return CellTerminal(leader: leader, follower: follower)
    }

    func close() {
        Glibc.close(follower)
        Glibc.close(leader)
    }
}

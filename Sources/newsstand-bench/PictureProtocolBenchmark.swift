import Foundation
import NewsstandImaging
import NewsstandPictures

/// Terminal pictures: the time to make a cover's picture (decode at the size shown and fit it) and then to encode
/// it and write it out with each protocol — kitty (PNG, base64, 4096-byte chunks), sixel (libsixel, 256 colours)
/// and iTerm2 (PNG, base64) — at a shelf cover's size and the issue page's, for 10 × 20-pixel cells. The bytes are
/// written to /dev/null: what the terminal then does with them is not measured. A kitty picture is sent once and
/// then placed by its cells; sixel and iTerm2 pictures are written again whenever they move.
struct PictureProtocolBenchmark {
    var sizes: [(name: String, columns: Int, rows: Int)] = [("shelf cover", 10, 7), ("issue page", 39, 26)]
    var cell = CellPixelSize(width: 10, height: 20)
    var repetitions = 15

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
        for size in sizes {
            progress("timing pictures for a \(size.name) (\(size.columns)×\(size.rows) cells)")
            let target = TextArt.decodingSize(columns: size.columns, rows: size.rows, cellPixels: cell)
            var picture: TerminalPicture?
            var makeTimes: [Double] = []
            for _ in 0..<repetitions {
                let (made, seconds) = try MonotonicClock.measure {
                    TerminalPicture(fitting: try ImageDecoder.decode(data, targetSize: target), columns: size.columns, rows: size.rows, cell: cell)
                }
                picture = made
                makeTimes.append(seconds)
            }
            guard let picture else { continue }
            table.add("\(size.name): decode + fit", Statistics(makeTimes), format: Format.milliseconds,
                      notes: "\(picture.image.width)×\(picture.image.height) px")
            let encoders: [(String, () throws -> [UInt8])] = [
                ("kitty", { try KittyGraphics.transmit(picture) }),
                ("sixel", { try SixelEncoder.encode(picture.image, background: .black) }),
                ("iterm", { try ITermImages.inline(picture.image, columns: picture.columns, rows: picture.rows) }),
            ]
            for (name, encode) in encoders {
                var times: [Double] = []
                var bytes = 0
                for _ in 0..<repetitions {
                    let (_, seconds) = try MonotonicClock.measure {
                        let output = try encode()
                        bytes = output.count
                        sink.write(Data(output))
                    }
                    times.append(seconds)
                }
                table.add("\(size.name): encode + send, \(name)", Statistics(times), format: Format.milliseconds,
                          notes: "\(Format.count(bytes)) bytes")
            }
        }
        table.note("kitty: sent once per picture, then scrolled and redrawn as cells; sixel and iTerm2: sent again each time a picture moves (the encoded bytes are kept).")
        table.print()
    }
}

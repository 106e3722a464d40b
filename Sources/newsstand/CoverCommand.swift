import Foundation
import NewsstandCore
import NewsstandImaging
import NewsstandUI

/// `newsstand cover ISSUE | --file PATH [--width N] [--height N] [--mode ascii|ascii-color|blocks] [--light]`:
/// prints a cover as text art to stdout.
///
/// An issue's cover comes through `CoverArtService.coverData`, the same disk cache (and revalidation) as the
/// shelf. The height defaults to the picture's aspect at the given width (cells twice as tall as wide). The
/// mode defaults to `ascii` when stdout is not a terminal or `NO_COLOR` is set, else `ascii-color`. Colours are
/// SGR 38;2/48;2 (truecolor) when `COLORTERM` is `truecolor` or `24bit`, else 38;5/48;5 (256 colours).
enum CoverCommand {
    static let cellAspect = 2.0

    static func run(_ arguments: inout ArgumentList) throws {
        let environment = ProcessInfo.processInfo.environment
        let file = arguments.option("--file")
        let width = try arguments.integerOption("--width", range: 1...1000) ?? 40
        let height = try arguments.integerOption("--height", range: 1...1000)
        let light = arguments.flag("--light")
        let modeName = arguments.option("--mode")
        let reference = file == nil ? try arguments.positional("issue name (or --file PATH)") : nil
        try arguments.finish()

        let mode: CoverArtMode
        if let modeName {
            guard let chosen = CoverArtMode(rawValue: modeName) else {
                throw UsageError("--mode takes \(CoverArtMode.allCases.map(\.rawValue).joined(separator: ", ")), not '\(modeName)'")
            }
            mode = chosen
        } else {
            let colorless = isatty(STDOUT_FILENO) != 1 || !(environment["NO_COLOR"] ?? "").isEmpty
            mode = colorless ? .ascii : .asciiColor
        }

        let data: Data
        if let file {
            guard let contents = FileManager.default.contents(atPath: file) else {
                throw CommandFailure("cannot draw the cover: cannot read \(file)")
            }
            data = contents
        } else {
            let context = try LibraryContext.open()
            let issue = try context.issue(reference!)
            let service = CoverArtService(store: context.store, cacheDirectory: context.paths.coverCacheDirectory, client: context.client,
                                          issueFolder: CoverArtService.folders(of: context.store, in: context.paths)) { _ in }
            do {
                data = try service.coverData(issueID: issue.id)
            } catch {
                throw CommandFailure("cannot draw the cover: \(error)")
            }
        }

        let image: RasterImage
        do {
            image = try ImageDecoder.decode(data, targetSize: (width * 4, (height ?? width * 2) * 8))
        } catch {
            throw CommandFailure("cannot draw the cover: \(error)")
        }
        let rows = height ?? max(1, Int((Double(width) * Double(image.height) / Double(max(1, image.width)) / cellAspect).rounded()))
        let art = AsciiArtRenderer.render(image, options: AsciiArtOptions(columns: width, rows: rows, cellAspect: cellAspect,
                                                                          background: light ? .light : .dark, mode: mode))
        let trueColor = ["truecolor", "24bit"].contains((environment["COLORTERM"] ?? "").lowercased())
        FileHandle.standardOutput.write(Data(TerminalArt.text(art, trueColor: trueColor).utf8))
    }
}

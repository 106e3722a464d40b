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
            let service = CoverArtService(store: context.store, cacheDirectory: context.paths.coverCacheDirectory) { _ in }
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

/// Text art as terminal output: one line per row, SGR colour sequences where cells have colours.
enum TerminalArt {
    static func text(_ art: TextArt, trueColor: Bool) -> String {
        guard art.hasColors else { return art.lines.map { $0 + "\n" }.joined() }
        func sgr(_ color: RGBColor?, foreground: Bool) -> String {
            guard let color else { return foreground ? "39" : "49" }
            if trueColor { return "\(foreground ? 38 : 48);2;\(color.red);\(color.green);\(color.blue)" }
            return "\(foreground ? 38 : 48);5;\(ColorApproximation.indexed(red: color.red, green: color.green, blue: color.blue))"
        }
        var output = ""
        for (row, line) in art.lines.enumerated() {
            var current: (String, String)? = nil
            for (column, character) in line.enumerated() {
                let wanted = (sgr(art.foreground(column: column, row: row), foreground: true),
                              sgr(art.background(column: column, row: row), foreground: false))
                if current == nil || current! != wanted {
                    output += "\u{1B}[\(wanted.0);\(wanted.1)m"
                    current = wanted
                }
                output.append(character)
            }
            output += "\u{1B}[0m\n"
        }
        return output
    }
}

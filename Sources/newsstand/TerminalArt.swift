import NewsstandImaging
import NewsstandUI

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

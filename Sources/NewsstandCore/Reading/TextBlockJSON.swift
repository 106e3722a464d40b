import Foundation
import NewsstandContent

/// A reader's blocks as JSON, so a whole article kept in the library reads back exactly as it was extracted:
/// every block with its kind, its text as runs (style bits, link number and address, footnote number).
///
///     [{"kind":"heading","level":2,"runs":[{"text":"Brass or tin"}]},
///      {"kind":"paragraph","runs":[{"text":"See "},{"text":"pipes[1]","link":1,"url":"https://example.com/pipes"}]}]
public enum TextBlockJSON {
    public static func encode(_ blocks: [TextBlock]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        guard let data = try? encoder.encode(blocks.map(Coded.init)) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The blocks, or nil when `text` is not blocks as `encode` writes them.
    public static func decode(_ text: String) -> [TextBlock]? {
        guard let coded = try? JSONDecoder().decode([Coded].self, from: Data(text.utf8)) else { return nil }
        var blocks: [TextBlock] = []
        blocks.reserveCapacity(coded.count)
        for block in coded {
            guard let decoded = block.block else { return nil }
            blocks.append(decoded)
        }
        return blocks
    }

    /// One block; the fields its kind has, the others absent.
    private struct Coded: Codable {
        var kind: String
        var level: Int?
        var depth: Int?
        var marker: String?
        var number: Int?
        var runs: [Run]?
        var plain: String?
        var source: String?
        var rows: [[[Run]]]?
        var headerRows: Int?

        init(_ block: TextBlock) {
            switch block {
            case .heading(let level, let text): kind = "heading"; self.level = level; runs = Run.runs(text)
            case .paragraph(let text): kind = "paragraph"; runs = Run.runs(text)
            case .listItem(let depth, let marker, let text): kind = "list_item"; self.depth = depth; self.marker = marker; runs = Run.runs(text)
            case .quote(let text): kind = "quote"; runs = Run.runs(text)
            case .preformatted(let text): kind = "code"; plain = text
            case .image(let source, let alt): kind = "picture"; self.source = source?.absoluteString; plain = alt
            case .caption(let text): kind = "caption"; runs = Run.runs(text)
            case .table(let table): kind = "table"; rows = table.rows.map { $0.map(Run.runs) }; headerRows = table.headerRowCount
            case .footnote(let number, let text): kind = "footnote"; self.number = number; runs = Run.runs(text)
            case .rule: kind = "rule"
            }
        }

        var block: TextBlock? {
            let text = StyledText((runs ?? []).compactMap(\.run))
            switch kind {
            case "heading": return .heading(level: level ?? 1, text: text)
            case "paragraph": return .paragraph(text)
            case "list_item": return .listItem(depth: depth ?? 0, marker: marker ?? "", text: text)
            case "quote": return .quote(text)
            case "code": return .preformatted(plain ?? "")
            case "picture": return .image(source: source.flatMap(URL.init(string:)), alt: plain ?? "")
            case "caption": return .caption(text)
            case "table":
                let cells = (rows ?? []).map { $0.map { StyledText($0.compactMap(\.run)) } }
                return .table(TextTable(rows: cells, headerRowCount: headerRows ?? 0))
            case "footnote": return .footnote(number: number ?? 0, text: text)
            case "rule": return .rule
            default: return nil
            }
        }
    }

    /// One run of styled text.
    private struct Run: Codable {
        var text: String
        var style: UInt8?
        var link: Int?
        var url: String?
        var footnote: Int?

        static func runs(_ text: StyledText) -> [Run] {
            text.runs.map { run in
                Run(text: run.text, style: run.style.isEmpty ? nil : run.style.rawValue, link: run.link?.number,
                    url: run.link?.url.absoluteString, footnote: run.footnote)
            }
        }

        var run: StyledRun? {
            let target: TextLink? = if let link, let address = url.flatMap(URL.init(string:)) { TextLink(number: link, url: address) } else { nil }
            return StyledRun(text, style: InlineStyle(rawValue: style ?? 0), link: target, footnote: footnote)
        }
    }
}

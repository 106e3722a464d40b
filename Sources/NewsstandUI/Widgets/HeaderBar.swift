import NewsstandContent
import NewsstandCore

/// The top line: the program's name and a tab for each subscribed publication, the current one highlighted, with NEW counts.
/// With more tabs than fit, they start late enough for the current one to show; "‹" marks tabs hidden to the left.
public struct HeaderBar {
    public var publications: [Publication]
    public var selected: Int
    /// Issue counts per publication (the NEW ones are shown).
    public var counts: [Int64: IssueCounts]

    public func render(in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        buffer.fill(area, style: theme[.header])
        var x = area.x + buffer.write(" NEWSSTAND ", x: area.x, y: area.y, style: theme[.header].adding(.bold))
        let first = firstTab(room: area.maxX - x - 2)
        if first > 0 { x += buffer.write("‹ ", x: x, y: area.y, style: theme[.headerTab]) }
        for index in first..<publications.count {
            guard x < area.maxX else { break }
            x += buffer.write(label(index), x: x, y: area.y, style: theme[index == selected ? .headerActiveTab : .headerTab], maxWidth: area.maxX - x)
            x += 1
        }
    }

    func label(_ index: Int) -> String {
        let publication = publications[index]
        let count = counts[publication.id]?.new ?? 0
        return " \(publication.title)\(count > 0 ? " (\(count) new)" : "") "
    }

    /// The first tab drawn: the earliest from which the selected tab still fits in `room` columns.
    func firstTab(room: Int) -> Int {
        guard publications.indices.contains(selected) else { return 0 }
        var first = selected
        var used = DisplayWidth.of(label(selected)) + 1
        while first > 0 {
            let width = DisplayWidth.of(label(first - 1)) + 1
            guard used + width <= room else { break }
            used += width
            first -= 1
        }
        return first
    }
}

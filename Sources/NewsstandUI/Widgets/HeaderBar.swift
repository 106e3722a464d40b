import NewsstandCore

/// The top line: the program's name and a tab for each subscribed publication, the current one highlighted, with NEW counts.
public struct HeaderBar {
    public var publications: [Publication]
    public var selected: Int
    public var newCounts: [Int64: Int]

    public func render(in area: Rect, theme: Theme, into buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        buffer.fill(area, style: theme[.header])
        var x = area.x + buffer.write(" NEWSSTAND ", x: area.x, y: area.y, style: theme[.header].adding(.bold))
        for (index, publication) in publications.enumerated() {
            let count = newCounts[publication.id] ?? 0
            let label = " \(publication.title)\(count > 0 ? " (\(count) new)" : "") "
            guard x < area.maxX else { break }
            x += buffer.write(label, x: x, y: area.y, style: theme[index == selected ? .headerActiveTab : .headerTab], maxWidth: area.maxX - x)
            x += 1
        }
    }
}

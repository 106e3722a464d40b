/// One cell to draw: its position and what goes there.
public struct CellChange: Equatable, Sendable {
    public let x: Int
    public let y: Int
    public let cell: Cell
}

/// Finds the cells that differ between two frames, so the backend draws only those.
public enum BufferDiff {
    /// Changes that turn `previous` into `current`; everything when there is no previous frame or the size changed.
    /// Continuation cells are left out (drawing the wide character covers them), except where a
    /// wide character became narrow and its old right half must be redrawn.
    public static func changes(from previous: CellBuffer?, to current: CellBuffer) -> [CellChange] {
        var changes: [CellChange] = []
        let isFull = previous == nil || previous!.width != current.width || previous!.height != current.height
        for y in 0..<current.height {
            var x = 0
            while x < current.width {
                let cell = current[x, y]
                let changed = isFull || previous![x, y] != cell
                if changed && !cell.isContinuation {
                    changes.append(CellChange(x: x, y: y, cell: cell))
                } else if changed && cell.isContinuation && x > 0 && !isFull && previous![x - 1, y] == current[x - 1, y] {
                    // The wide character to the left did not change, but this half did: redraw the wide character.
                    changes.append(CellChange(x: x - 1, y: y, cell: current[x - 1, y]))
                }
                x += 1
            }
        }
        return changes
    }
}

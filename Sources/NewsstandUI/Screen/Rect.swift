/// A rectangle of cells: origin at the top left, sizes never negative.
public struct Rect: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }

    public func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }

    /// Whether the two rectangles share a cell.
    public func overlaps(_ other: Rect) -> Bool {
        !isEmpty && !other.isEmpty && x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// The rectangle shrunk by `amount` on every side (never below zero size).
    public func inset(by amount: Int) -> Rect { inset(horizontal: amount, vertical: amount) }

    public func inset(horizontal: Int, vertical: Int) -> Rect {
        Rect(x: x + horizontal, y: y + vertical, width: width - 2 * horizontal, height: height - 2 * vertical)
    }

    /// Splits off `count` rows at the top: (top, rest).
    public func splitTop(_ count: Int) -> (Rect, Rect) {
        let top = min(max(0, count), height)
        return (Rect(x: x, y: y, width: width, height: top), Rect(x: x, y: y + top, width: width, height: height - top))
    }

    /// Splits off `count` rows at the bottom: (rest, bottom).
    public func splitBottom(_ count: Int) -> (Rect, Rect) {
        let bottom = min(max(0, count), height)
        return (Rect(x: x, y: y, width: width, height: height - bottom), Rect(x: x, y: maxY - bottom, width: width, height: bottom))
    }

    /// Splits off `count` columns at the left: (left, rest).
    public func splitLeft(_ count: Int) -> (Rect, Rect) {
        let left = min(max(0, count), width)
        return (Rect(x: x, y: y, width: left, height: height), Rect(x: x + left, y: y, width: width - left, height: height))
    }

    /// One row of this rectangle (empty when out of range).
    public func row(_ index: Int) -> Rect {
        guard index >= 0 && index < height else { return Rect(x: x, y: y, width: 0, height: 0) }
        return Rect(x: x, y: y + index, width: width, height: 1)
    }
}

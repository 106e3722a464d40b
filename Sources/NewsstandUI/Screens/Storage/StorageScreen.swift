import NewsstandCore

/// The storage screen (`S`): space used by downloaded issues (and kept whole articles) per publication, the budget,
/// and what keeping to it would remove — before anything is; `x` removes it now.
public struct StorageScreen: ScreenModel {
    /// nil while it is measured.
    public var report: StorageReport?

    public init(report: StorageReport? = nil) {
        self.report = report
    }

    public var kind: ScreenKind { .storage }
    public var screen: Screen { .storage(self) }

    /// Opens it measuring.
    static func open() -> ScreenAnswer { .push(.storage(StorageScreen()), [.measureStorage]) }

    public mutating func handle(_ command: Command, key: Key, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        switch command {
        case .enforceStorageBudget:
            guard let report, !report.plannedRemovals.isEmpty else {
                shared.message = StatusMessage("Nothing to remove: the library is within its limits.")
                return .stay()
            }
            shared.message = StatusMessage("Removing \(report.plannedRemovals.count) issue\(report.plannedRemovals.count == 1 ? "" : "s")…")
            return .stay([.enforceStorageLimits])
        case .back: return .pop()
        default: return .stay()
        }
    }

    public mutating func receive(_ message: Message, body: Rect, shared: inout SharedState) -> ScreenAnswer {
        if case .storageMeasured(let report) = message { self.report = report }
        return .stay()
    }

    public func render(_ shared: SharedState, in body: Rect, theme: Theme, into buffer: inout CellBuffer) -> String {
        Self.render(report, in: body, theme: theme, into: &buffer)
        return ""
    }
}

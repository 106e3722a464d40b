import Foundation
import NewsstandCore

/// `newsstand storage [--evict]`: space used per publication, the budget, and what keeping to it would remove.
enum StorageCommand {
    static func run(_ arguments: inout ArgumentList) throws {
        let evict = arguments.flag("--evict")
        try arguments.finish()
        let context = try LibraryContext.open()
        let budget = context.configuration.storageBudget
        let report = try StorageReport.measure(store: context.store, paths: context.paths, budget: budget)
        for usage in report.usage {
            print("\(usage.publication.title)\t\(usage.countsText)\t\(megabytes(usage.bytes + usage.articleBytes))")
        }
        guard let budget else {
            print("Total\t\(megabytes(report.totalBytes))\t(no storage-budget set in \(context.paths.configFile.path))")
            return
        }
        print("Total\t\(megabytes(report.totalBytes)) of \(megabytes(budget))")
        if report.plannedRemovals.isEmpty {
            print("Within budget: nothing would be removed.")
        } else if evict {
            let removed = SyncService(store: context.store, paths: context.paths, client: context.client).enforceLimits(budget: budget)
            print("Removed: " + removed.map(\.handle).joined(separator: ", "))
        } else {
            print("Over budget; `newsstand storage --evict` (or the next sync) would remove: " + report.plannedRemovals.map(\.handle).joined(separator: ", "))
        }
    }

    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}

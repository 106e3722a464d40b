import Foundation
import NewsstandCore

/// `newsstand storage [--evict]`: space used per publication, the budget, and what keeping to it would remove.
enum StorageCommand {
    static func run(_ arguments: inout ArgumentList) throws {
        let evict = arguments.flag("--evict")
        try arguments.finish()
        let context = try LibraryContext.open()
        let storage = IssueStorage(store: context.store, paths: context.paths)
        var total: Int64 = 0
        for publication in try context.store.publications() {
            let downloaded = try context.store.issues(publicationID: publication.id).filter { $0.state == .available }
            let bytes = downloaded.reduce(Int64(0)) { sum, issue in sum + storage.size(of: issue, in: publication) }
            total += bytes
            print("\(publication.title)\t\(downloaded.count) issue\(downloaded.count == 1 ? "" : "s")\t\(megabytes(bytes))")
        }
        guard let budget = context.configuration.storageBudget else {
            print("Total\t\(megabytes(total))\t(no storage-budget set in \(context.paths.configFile.path))")
            return
        }
        print("Total\t\(megabytes(total)) of \(megabytes(budget))")
        let sync = SyncService(store: context.store, paths: context.paths)
        let planned = sync.plannedEvictions(budget: budget)
        if planned.isEmpty {
            print("Within budget: nothing would be removed.")
        } else if evict {
            let removed = sync.enforceLimits(budget: budget)
            print("Removed: " + removed.map(\.name).joined(separator: ", "))
        } else {
            print("Over budget; `newsstand storage --evict` (or the next sync) would remove: " + planned.map(\.name).joined(separator: ", "))
        }
    }

    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}

import Foundation
import NewsstandCore
import NewsstandImaging
@testable import NewsstandUI

/// Small libraries and states for screen tests.
enum Fixtures {
    static let publication = Publication(id: 1, name: "kettle", title: "Kettle & Compass", feedURL: URL(string: "https://example.com/catalog.plist")!)
    static let second = Publication(id: 2, name: "other", title: "Other Weekly", feedURL: URL(string: "https://example.com/other.plist")!)

    static func issue(_ id: Int64, _ title: String, state: IssueState = .notDownloaded, progress: Double = 0, day: Int = 1,
                      opened: Bool = true, publicationID: Int64 = 1) -> Issue {
        Issue(id: id, publicationID: publicationID, name: "issue-\(id)", title: title,
              date: DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"), year: 2026, month: 3, day: day, hour: 12).date!,
              summary: "Summary of \(title).", coverURL: URL(string: "https://example.com/\(id).png"),
              contentURLs: [URL(string: "https://example.com/\(id).epub")!], state: state, progress: progress,
              openedAt: opened ? Date(timeIntervalSince1970: 1) : nil, arrivedNew: !opened)
    }

    /// A loaded state with the given issues in one publication.
    static func state(width: Int = 80, height: Int = 24, issues: [Issue], publications: [Publication] = [publication],
                      reading: Int64? = nil) -> AppState {
        var state = AppState(width: width, height: height)
        var byPublication: [Int64: [Issue]] = [:]
        for issue in issues { byPublication[issue.publicationID, default: []].append(issue) }
        _ = AppUpdate.update(&state, .libraryLoaded(LibrarySnapshot(publications: publications, issues: byPublication, currentlyReadingIssueID: reading)))
        return state
    }

    /// Art whose every character is `symbol`, to see where a cover lands.
    static func art(_ symbol: Character, columns: Int = 12, rows: Int = 8) -> TextArt {
        TextArt(columns: columns, rows: rows, lines: Array(repeating: String(repeating: symbol, count: columns), count: rows))
    }
}

import Foundation
import NewsstandCore

/// Fills a library with many publications and issues through the real `LibraryStore` API,
/// as catalog refreshes and downloads would: `addPublication`, `upsertIssues` in batches,
/// then `setState` / `markOpened` for the issues that are downloading, available, failed or read.
///
/// Everything is derived from a fixed seed, so every run builds the same library.
struct LibraryGenerator {
    var publicationCount = 20
    var issuesPerPublication = 500
    var batchSize = 100

    struct Summary {
        let publications: Int
        let issues: Int
        let stateChanges: Int
        let databaseBytes: Int
    }

    func generate(into paths: LibraryPaths) throws -> Summary {
        try paths.createDirectories()
        let store = try LibraryStore(file: paths.databaseFile)
        defer { store.close() }
        var random = SplitMix64(seed: 0x4E65_7773_7374_616E)
        var stateChanges = 0
        for publicationIndex in 0..<publicationCount {
            let round = publicationIndex / Self.publicationTitles.count
            let title = Self.publicationTitles[publicationIndex % Self.publicationTitles.count] + (round == 0 ? "" : " \(round + 1)")
            let slug = PathComponent.slug(title)
            let publication = try store.addPublication(title: title, feedURL: URL(string: "https://feeds.example.com/\(slug)/catalog.plist")!)
            let cadenceDays = [7, 14, 30, 91][publicationIndex % 4]
            var entries: [CatalogEntry] = []
            for number in 1...issuesPerPublication {
                entries.append(entry(number: number, publicationSlug: slug, cadenceDays: cadenceDays, random: &random))
            }
            var issues: [Issue] = []
            for start in stride(from: 0, to: entries.count, by: batchSize) {
                issues = try store.upsertIssues(Array(entries[start..<min(entries.count, start + batchSize)]), publicationID: publication.id)
            }
            stateChanges += try assignStates(issues, store: store, random: &random)
        }
        try store.setSetting("sample_library_offered", to: "yes")
        let size = (try? FileManager.default.attributesOfItem(atPath: paths.databaseFile.path)[.size] as? Int) ?? 0
        return Summary(publications: publicationCount, issues: publicationCount * issuesPerPublication, stateChanges: stateChanges, databaseBytes: size)
    }

    /// Newest issues are the ones most likely to be on the machine: a couple downloading, a few failed,
    /// most of the recent ones available (some already read), and a scattering of older ones kept.
    private func assignStates(_ newestFirst: [Issue], store: LibraryStore, random: inout SplitMix64) throws -> Int {
        var changes = 0
        for (index, issue) in newestFirst.enumerated() {
            let roll = random.nextDouble()
            if index < 2 && roll < 0.7 {
                try store.setState(.downloading, issueID: issue.id, progress: random.nextDouble())
            } else if index < 40 && roll < 0.08 {
                try store.setState(.failed(reason: Self.failureReasons[Int(random.next() % UInt64(Self.failureReasons.count))]), issueID: issue.id)
            } else if (index < 40 && roll < 0.6) || roll < 0.03 {
                try store.setState(.available, issueID: issue.id)
                if index > 4 && random.nextDouble() < 0.5 {
                    try store.markOpened(issueID: issue.id, at: issue.date.addingTimeInterval(86_400 * 3))
                    changes += 1
                }
            } else {
                continue
            }
            changes += 1
        }
        return changes
    }

    private func entry(number: Int, publicationSlug: String, cadenceDays: Int, random: inout SplitMix64) -> CatalogEntry {
        let newest = Date(timeIntervalSince1970: 1_793_491_200) // 2026-11-01
        let date = newest.addingTimeInterval(-Double((issuesPerPublication - number) * cadenceDays) * 86_400)
        let theme = Self.pick(Self.themes, &random)
        let title: String
        switch random.next() % 4 {
        case 0: title = "No. \(number): \(theme)"
        case 1: title = "\(theme) — Issue \(number)"
        case 2: title = "The \(Self.pick(Self.adjectives, &random)) Issue: \(theme)"
        default: title = "\(theme) & \(Self.pick(Self.themes, &random))"
        }
        var sentences: [String] = []
        for _ in 0..<(2 + Int(random.next() % 3)) {
            sentences.append("\(Self.pick(Self.openers, &random)) \(Self.pick(Self.subjects, &random)) \(Self.pick(Self.closers, &random)).")
        }
        let name = String(format: "issue-%04d", number)
        let base = "https://cdn.example.com/\(publicationSlug)/\(name)"
        return CatalogEntry(name: name, title: title, date: date, summary: sentences.joined(separator: " "),
                            coverURL: URL(string: "\(base)/cover.jpg"), contentURLs: [URL(string: "\(base)/\(name).epub")!],
                            expectedSize: 2_000_000 + Int64(random.next() % 40_000_000),
                            expectedSHA256: String(repeating: String(format: "%016llx", random.next()), count: 4))
    }

    private static func pick(_ words: [String], _ random: inout SplitMix64) -> String {
        words[Int(random.next() % UInt64(words.count))]
    }

    static let publicationTitles = [
        "Kettle & Compass", "The Lantern", "Northern Review", "Field Notes Quarterly", "The Salt Road",
        "Circuit & Solder", "Harbour Lights", "The Long Table", "Orbit Weekly", "Café Métropole",
        "Green Thumb Monthly", "The Night Train", "Paper Kites", "Tidewater Gazette", "Quiet Machines",
        "The Cartographer", "Signal/Noise", "Mountain & Moor", "東京 Notebook", "The Weekend Reader",
    ]

    static let themes = [
        "The Salt Roads", "Winter Kitchens", "Lost Railways", "Night Markets", "Small Engines", "Tidal Islands",
        "The Bread Issue", "Letters from Lisbon", "Quiet Rooms", "Rivers of the North", "Glass & Steel",
        "Season of Mushrooms", "Coastal Walks", "The Repair Shop", "Citrus", "Tea Across Borders", "Paper Cities",
        "Old Maps", "Soundings", "Café Culture", "Slow Travel", "Moths", "The Heat Issue", "Harvest",
    ]

    static let adjectives = ["Green", "Long", "Quiet", "Bright", "Coastal", "Midwinter", "Summer", "Collected", "Travel", "Kitchen"]

    static let openers = [
        "Inside:", "This issue:", "We follow", "A long read on", "Photographs of", "Recipes from", "An interview about",
        "Notes on", "Readers' letters about", "A field guide to", "Plus:",
    ]

    static let subjects = [
        "the last ferrymen of the fjords", "a bakery that never closes", "repairing a 1962 radio", "the spice merchants of Zanzibar",
        "mapping forgotten footpaths", "night trains across the Alps", "a lighthouse keeper's logbook", "the economics of tea",
        "cold-water swimming in January", "building a kayak by hand", "the café where Sartre wrote", "fermenting everything",
        "a weekend in Kyoto's back streets", "the quiet revival of letterpress", "wild garlic and where to find it",
    ]

    static let closers = [
        "and why it matters now", "told through the people who were there", "with a fold-out map", "over twelve pages",
        "in words and pictures", "from a reader in Tromsø", "as the season turns", "with recipes to try at home",
    ]

    static let failureReasons = [
        "the server answered 404 Not Found", "the download was cut off after 12.4 MB of 30.1 MB",
        "the file's SHA-256 did not match the catalog", "the disk is full", "the connection timed out",
    ]
}

/// A small, fast, seedable generator (Steele, Lea & Flood's SplitMix64), so generated libraries repeat exactly.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<1.
    mutating func nextDouble() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }
}

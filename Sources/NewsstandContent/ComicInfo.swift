import Foundation

/// What a comic book's `ComicInfo.xml` (the ComicRack schema) says: its title, series and number,
/// and what some pages are (front cover, letters, a bookmark).
///
/// Every text is cleaned for the terminal (`TextSanitizer.singleLine`) and cut to 200 characters.
public struct ComicInfo: Sendable, Equatable {
    /// One `<Page>` of `<Pages>`: the index of the image it describes (0-based, in reading order), its
    /// `Type` (`FrontCover`, `Story`, `Deleted`…) and `Bookmark`.
    public struct Page: Sendable, Equatable {
        public let image: Int
        public let type: String?
        public let bookmark: String?

        public init(image: Int, type: String? = nil, bookmark: String? = nil) {
            self.image = image
            self.type = type
            self.bookmark = bookmark
        }

        /// Whether the page is marked as removed from the book (`Type="Deleted"`).
        public var isDeleted: Bool { type?.caseInsensitiveCompare("Deleted") == .orderedSame }

        /// What the page is, in words: its bookmark, else its kind ("Front cover", "Advertisement"), else nil
        /// (plain story pages and `Other` say nothing).
        public var label: String? {
            if let bookmark, !bookmark.isEmpty { return bookmark }
            guard let type, !type.isEmpty, !["story", "other", "deleted"].contains(type.lowercased()) else { return nil }
            return ComicInfo.words(type)
        }
    }

    public var title: String?
    public var series: String?
    public var number: String?
    public var summary: String?
    public var pages: [Page]

    public init(title: String? = nil, series: String? = nil, number: String? = nil, summary: String? = nil, pages: [Page] = []) {
        self.title = title
        self.series = series
        self.number = number
        self.summary = summary
        self.pages = pages
    }

    /// The most bytes of `ComicInfo.xml` read; a larger file is ignored.
    public static let maximumBytes = 1 << 20
    /// The most `<Page>` entries kept.
    public static let maximumPages = 100_000

    /// The book's title: "Series #Number: Title", "Series #Number", "Title" or "Series"; nil when none is given.
    public var displayTitle: String? {
        var name = series ?? ""
        if let number, !name.isEmpty { name += " #\(number)" }
        if let title { return name.isEmpty ? title : "\(name): \(title)" }
        return name.isEmpty ? nil : name
    }

    /// Parses the XML; nil when it is not well-formed or has no `<ComicInfo>` root.
    public static func parse(_ data: Data) -> ComicInfo? {
        guard data.count <= maximumBytes, case .success(let document) = XMLTreeParser.parse(data: data),
              let root = document.firstChild(named: "ComicInfo") else { return nil }
        func text(_ name: String) -> String? { clean(root.firstChild(named: name)?.collapsedText) }
        var pages: [Page] = []
        for element in root.firstChild(named: "Pages")?.children(named: "Page") ?? [] where pages.count < maximumPages {
            guard let image = element.attribute("Image").flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), image >= 0 else { continue }
            pages.append(Page(image: image, type: clean(element.attribute("Type")), bookmark: clean(element.attribute("Bookmark"))))
        }
        return ComicInfo(title: text("Title"), series: text("Series"), number: text("Number"), summary: text("Summary"), pages: pages)
    }

    /// Reads and parses `file`, refusing files over `maximumBytes`; nil when it cannot be used.
    public static func read(_ file: URL) -> ComicInfo? {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue,
              size <= maximumBytes, let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return parse(data)
    }

    /// Text safe for one terminal line, at most 200 characters; nil when empty.
    static func clean(_ text: String?) -> String? {
        guard let text else { return nil }
        let line = TextSanitizer.singleLine(text).trimmingCharacters(in: .whitespaces)
        return line.isEmpty ? nil : String(line.prefix(200))
    }

    /// "FrontCover" → "Front cover".
    static func words(_ camelCase: String) -> String {
        var result = ""
        for (index, character) in camelCase.enumerated() {
            if index > 0, character.isUppercase, !result.hasSuffix(" ") {
                result += " " + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}

import Foundation

extension ReadingPosition: Comparable {
    /// Reading order: article, then block, then characters into the block.
    public static func < (lhs: ReadingPosition, rhs: ReadingPosition) -> Bool {
        (lhs.articleIndex, lhs.blockIndex, lhs.characterOffset) < (rhs.articleIndex, rhs.blockIndex, rhs.characterOffset)
    }
}

/// A named place in an issue (`m` in the reader): a line, kept in the width-independent `ReadingPosition`.
public struct Bookmark: Equatable, Sendable, Identifiable {
    /// The library's id for it (0 until it is stored).
    public var id: Int64
    public var issueID: Int64
    public var position: ReadingPosition
    public var name: String
    public var created: Date

    public init(id: Int64 = 0, issueID: Int64, position: ReadingPosition, name: String, created: Date = Date()) {
        self.id = id
        self.issueID = issueID
        self.position = position
        self.name = name
        self.created = created
    }
}

/// A highlighted passage of an issue, perhaps with a note. Anchored to the text, not to screen lines: its
/// start and end are width-independent positions (the end just past its last character), and it keeps the
/// passage's text (white space collapsed) and a little text either side, so the passage is found again when
/// a re-downloaded issue moved it. `isLost` is set when it can no longer be found.
public struct Highlight: Equatable, Sendable, Identifiable {
    public var id: Int64
    public var issueID: Int64
    /// Where it starts; its article is the passage's.
    public var start: ReadingPosition
    /// Just past its last character (same article as `start`).
    public var end: ReadingPosition
    /// The article's title when the passage was last found (for lists and exports).
    public var articleTitle: String
    /// The passage, white space collapsed to single spaces.
    public var text: String
    /// A few words before and after it, to choose among several places with the same text.
    public var before: String
    public var after: String
    /// The reader's note; empty for a plain highlight.
    public var note: String
    /// The passage could not be found in the issue any more (kept, and said so in lists and exports).
    public var isLost: Bool
    public var created: Date

    public init(id: Int64 = 0, issueID: Int64, start: ReadingPosition, end: ReadingPosition, articleTitle: String, text: String,
                before: String = "", after: String = "", note: String = "", isLost: Bool = false, created: Date = Date()) {
        self.id = id
        self.issueID = issueID
        self.start = start
        self.end = end
        self.articleTitle = articleTitle
        self.text = text
        self.before = before
        self.after = after
        self.note = note
        self.isLost = isLost
        self.created = created
    }

    public var articleIndex: Int { start.articleIndex }
}

/// An issue's bookmarks and highlights, in reading order.
public struct IssueMarks: Equatable, Sendable {
    public var bookmarks: [Bookmark]
    public var highlights: [Highlight]

    public init(bookmarks: [Bookmark] = [], highlights: [Highlight] = []) {
        self.bookmarks = bookmarks.sorted { ($0.position, $0.id) < ($1.position, $1.id) }
        self.highlights = highlights.sorted { ($0.isLost ? 1 : 0, $0.start, $0.id) < ($1.isLost ? 1 : 0, $1.start, $1.id) }
    }
}

/// A bookmark or a highlight, where either will do (deleting one).
public enum IssueMark: Equatable, Sendable, CustomStringConvertible {
    case bookmark(Bookmark)
    case highlight(Highlight)

    public var issueID: Int64 {
        switch self {
        case .bookmark(let bookmark): bookmark.issueID
        case .highlight(let highlight): highlight.issueID
        }
    }

    /// "the bookmark “Name”", "the highlight “First words…”".
    public var description: String {
        switch self {
        case .bookmark(let bookmark): "the bookmark “\(Self.shortened(bookmark.name))”"
        case .highlight(let highlight): "the \(highlight.note.isEmpty ? "highlight" : "note on") “\(Self.shortened(highlight.text))”"
        }
    }

    /// At most `count` characters, an ellipsis in place of the rest.
    public static func shortened(_ text: String, to count: Int = 40) -> String {
        text.count <= count ? text : String(text.prefix(count - 1)) + "…"
    }
}

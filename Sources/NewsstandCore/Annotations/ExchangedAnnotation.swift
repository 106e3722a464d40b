import Foundation

/// A highlight, note or bookmark as it goes between readers: the passage's text with a little either side (what it
/// is found again by), the note, the chapter, when it was made, and where it was — ours (`start`/`end`) or
/// KOReader's (`xpointer`, `page`) — as a hint.
public struct ExchangedAnnotation: Equatable, Sendable {
    public enum Kind: String, Sendable { case highlight, bookmark }

    public var kind: Kind
    /// The passage (a bookmark: its name).
    public var text: String
    public var prefix: String
    public var suffix: String
    public var note: String
    public var chapter: String
    public var created: Date?
    public var start: ReadingPosition?
    public var end: ReadingPosition?
    /// KOReader's XPointer of the start (`pos0`), or its page.
    public var xpointer: String?

    public init(kind: Kind = .highlight, text: String, prefix: String = "", suffix: String = "", note: String = "", chapter: String = "",
                created: Date? = nil, start: ReadingPosition? = nil, end: ReadingPosition? = nil, xpointer: String? = nil) {
        self.kind = kind
        self.text = text
        self.prefix = prefix
        self.suffix = suffix
        self.note = note
        self.chapter = chapter
        self.created = created
        self.start = start
        self.end = end
        self.xpointer = xpointer
    }
}

import Foundation

/// How close an extracted article's text is to a reference text, as extractors are usually
/// scored: both split into lowercased words (runs of letters and digits), compared as bags of
/// words. Precision is the share of our words the reference has, recall the share of its words
/// we have, F1 their harmonic mean.
public struct ArticleWordScore: Sendable, Equatable {
    public var precision: Double
    public var recall: Double
    public var f1: Double

    public init(extracted: String, expected: String) {
        let ours = Self.wordCounts(extracted)
        let theirs = Self.wordCounts(expected)
        let ourTotal = ours.values.reduce(0, +)
        let theirTotal = theirs.values.reduce(0, +)
        var common = 0
        for (word, count) in ours { common += min(count, theirs[word] ?? 0) }
        if ourTotal == 0 && theirTotal == 0 {
            precision = 1
            recall = 1
        } else {
            precision = ourTotal == 0 ? 0 : Double(common) / Double(ourTotal)
            recall = theirTotal == 0 ? 0 : Double(common) / Double(theirTotal)
        }
        f1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
    }

    /// Lowercased words and how often each occurs.
    public static func wordCounts(_ text: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        var word = ""
        for character in text.lowercased() {
            if character.isLetter || character.isNumber {
                word.append(character)
            } else if !word.isEmpty {
                counts[word, default: 0] += 1
                word = ""
            }
        }
        if !word.isEmpty { counts[word, default: 0] += 1 }
        return counts
    }

    /// The text of an HTML fragment (a reference article such as Readability's `expected.html`).
    public static func text(ofHTML data: Data) -> String {
        HTMLTreeParser.parse(data: data).textContent
    }
}

/// Keeps terminal answers that arrive after the start-up window from being read as keys.
///
/// A terminal that answers the start-up questions late (a slow link) sends them when the shelf already reads keys:
/// `ESC ] 11 ; rgb:… ST` would be Escape, then `r`, `g`, `b`… and DA1's `ESC [ ? 62 ; c` would end in `c`. ncurses
/// turns the escape sequences of real keys into key codes, so what begins like one of the answers asked for —
/// `ESC ] 11;` (the background), `ESC P >|` (XTVERSION), `ESC _ G` (kitty), `ESC [ ?` (DA1) or `ESC [ 6 ;` (the cell
/// size) — is dropped to its end (ST or BEL; a final byte), at most `longestAnswer` characters. Anything else, an
/// Escape on its own or Alt with a key, stays a key.
struct LateAnswerFilter {
    /// One thing ncurses read: a character, or a key code (`KEY_…`).
    enum Input: Equatable {
        case character(UInt32)
        case keyCode(Int32)
    }

    /// The most characters one answer is dropped for (a longer one is no answer of ours).
    static let longestAnswer = 512

    /// Where a batch left off inside an answer (answers split across reads continue in the next batch).
    private var state = State.keys
    private var dropped = 0

    private enum State {
        case keys
        case string(afterEscape: Bool)
        case controlSequence
    }

    /// How the answers asked for begin, after ESC.
    private static let beginnings: [(prefix: [UInt32], kind: State)] = [
        (Array("]11;".unicodeScalars.map(\.value)), .string(afterEscape: false)),
        (Array("P>|".unicodeScalars.map(\.value)), .string(afterEscape: false)),
        (Array("_G".unicodeScalars.map(\.value)), .string(afterEscape: false)),
        (Array("[?".unicodeScalars.map(\.value)), .controlSequence),
        (Array("[6;".unicodeScalars.map(\.value)), .controlSequence),
    ]

    /// The inputs of one batch that are keys, in order.
    mutating func keys(in inputs: [Input]) -> [Input] {
        var kept: [Input] = []
        var index = 0
        while index < inputs.count {
            let input = inputs[index]
            index += 1
            switch state {
            case .keys:
                guard input == .character(0x1B), let (length, kind) = Self.answerBeginning(in: inputs, at: index) else {
                    kept.append(input)
                    continue
                }
                state = kind
                dropped = 0
                index += length
            case .string(let afterEscape):
                guard case .character(let value) = input else { continue }
                if value == 0x07 || (afterEscape && value == 0x5C) { state = .keys } else { state = .string(afterEscape: value == 0x1B) }
            case .controlSequence:
                guard case .character(let value) = input else { state = .keys; continue }
                if (0x40...0x7E).contains(value) { state = .keys }
                else if !(0x20...0x3F).contains(value) { state = .keys; kept.append(input) } // not a sequence after all
            }
            if case .keys = state { continue }
            dropped += 1
            if dropped > Self.longestAnswer { state = .keys }
        }
        return kept
    }

    /// The length and kind of the answer beginning at `index` (just after an ESC), if one does.
    private static func answerBeginning(in inputs: [Input], at index: Int) -> (Int, State)? {
        for (prefix, kind) in beginnings where index + prefix.count <= inputs.count {
            if zip(prefix, inputs[index..<(index + prefix.count)]).allSatisfy({ .character($0) == $1 }) { return (prefix.count, kind) }
        }
        return nil
    }
}

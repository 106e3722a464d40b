/// Wraps an escape sequence so tmux hands it to the outer terminal (`DCS tmux; … ST`, every ESC doubled).
/// tmux passes it on only with `set -g allow-passthrough on`.
public enum TmuxPassthrough {
    public static func wrap(_ sequence: [UInt8]) -> [UInt8] {
        var wrapped = Array("\u{1B}Ptmux;".utf8)
        wrapped.reserveCapacity(sequence.count + 16)
        for byte in sequence {
            if byte == 0x1B { wrapped.append(0x1B) }
            wrapped.append(byte)
        }
        wrapped += Array("\u{1B}\\".utf8)
        return wrapped
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Streaming conversion of a document's bytes into UTF-8 through glibc's iconv, piece by piece as they
/// arrive, in a fixed output buffer: memory stays flat whatever the document's size. A sequence cut between
/// two pieces waits (a few bytes) for the next; bytes that are not text in the encoding become U+FFFD.
/// One transcoder per document and thread.
final class IconvTranscoder: TextTranscoder {
    /// UTF-8 handed on at once.
    static let outputBytes = 64 << 10
    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    let encoding: String
    private let converter: iconv_t
    private var output: UnsafeMutablePointer<CChar>
    /// The end of a piece that was cut inside a character, kept for the next piece.
    private var carried: [UInt8] = []

    /// A transcoder from `encoding` (a name iconv knows), or nil when iconv knows no such encoding.
    init?(from encoding: String) {
        let converter = iconv_open("UTF-8", encoding)
        guard let converter, converter != iconv_t(bitPattern: -1) else { return nil }
        self.encoding = encoding
        self.converter = converter
        output = .allocate(capacity: Self.outputBytes)
    }

    deinit {
        iconv_close(converter)
        output.deallocate()
    }

    /// Whether iconv can convert from `encoding`.
    static func canOpen(_ encoding: String) -> Bool {
        guard let converter = iconv_open("UTF-8", encoding), converter != iconv_t(bitPattern: -1) else { return false }
        iconv_close(converter)
        return true
    }

    /// Converts `bytes`, handing UTF-8 to `sink` in pieces of at most `outputBytes`; with `final`, the
    /// document ends here (a character left unfinished becomes U+FFFD).
    func convert(_ bytes: UnsafeRawBufferPointer, final: Bool, into sink: (UnsafeRawBufferPointer) -> Void) {
        var piece = bytes
        if !carried.isEmpty {
            // The cut character first: the carried bytes and enough of this piece to finish it (no character
            // iconv reads is longer than 8 bytes).
            let take = min(piece.count, 8)
            let joined = carried + piece.prefix(take)
            let rest = joined.withUnsafeBytes { run($0, into: sink) }
            let fromPiece = joined.count - rest - carried.count
            if take == piece.count || fromPiece < 0 {
                carried = Array(joined.suffix(rest))
                piece = UnsafeRawBufferPointer(start: nil, count: 0)
            } else {
                carried = []
                piece = UnsafeRawBufferPointer(rebasing: piece[fromPiece...])
            }
        }
        if !piece.isEmpty {
            let rest = run(piece, into: sink)
            carried = Array(piece.suffix(rest))
        }
        if final {
            if !carried.isEmpty { Self.replacement.withUnsafeBytes { sink($0) } }
            carried = []
            flushShiftState(into: sink)
        }
    }

    /// Converts as much of `bytes` as forms whole characters; returns how many bytes at the end were left
    /// (a character cut off by the piece's end).
    private func run(_ bytes: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) -> Void) -> Int {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        var input = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: CChar.self))
        var inputLeft = bytes.count
        while inputLeft > 0 {
            var out: UnsafeMutablePointer<CChar>? = output
            var outLeft = Self.outputBytes
            var inputPointer: UnsafeMutablePointer<CChar>? = input
            let result = iconv(converter, &inputPointer, &inputLeft, &out, &outLeft)
            let error = result == -1 ? errno : 0
            input = inputPointer!
            let produced = Self.outputBytes - outLeft
            if produced > 0 { sink(UnsafeRawBufferPointer(start: output, count: produced)) }
            switch error {
            case 0, E2BIG: continue
            case EINVAL: return inputLeft  // a character cut off at the end
            default:
                // Not a character in this encoding: one byte is skipped and marked.
                Self.replacement.withUnsafeBytes { sink($0) }
                input += 1
                inputLeft -= 1
            }
        }
        return 0
    }

    private func flushShiftState(into sink: (UnsafeRawBufferPointer) -> Void) {
        var out: UnsafeMutablePointer<CChar>? = output
        var outLeft = Self.outputBytes
        _ = iconv(converter, nil, nil, &out, &outLeft)
        let produced = Self.outputBytes - outLeft
        if produced > 0 { sink(UnsafeRawBufferPointer(start: output, count: produced)) }
    }
}

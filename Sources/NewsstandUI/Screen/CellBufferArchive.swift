/// A cell buffer as bytes and back, for a frame kept between runs (the shelf a start shows first, `LastShelfFile`).
///
/// The styles are listed once and each cell names one: `NSCB`, a version byte, width and height (16 bits each), the
/// number of styles (16 bits) and each as nine bytes (foreground and background as a kind and three values, then the
/// attributes), then per cell its style's index (16 bits), its symbol's length in bytes (one byte) and the symbol in
/// UTF-8. Integers are little-endian. Only text is kept: a buffer holding a picture is not archived.
///
/// Reading checks everything, since the bytes come from a file: the sizes, every index, and every symbol (UTF-8, at
/// most `maxSymbolBytes`, no control character, as `CellBuffer.write` would have replaced it). Anything else gives nil.
public enum CellBufferArchive {
    static let magic: [UInt8] = Array("NSCB".utf8)
    static let version: UInt8 = 1
    /// Larger than any terminal: a frame this size is refused, not allocated.
    public static let maxSide = 2_000
    static let maxSymbolBytes = 32

    public static func encode(_ buffer: CellBuffer) -> [UInt8]? {
        guard buffer.width <= maxSide, buffer.height <= maxSide, buffer.pictures.isEmpty else { return nil }
        var styles: [TextStyle] = []
        var styleIndex: [TextStyle: UInt16] = [:]
        var body: [UInt8] = []
        body.reserveCapacity(buffer.cells.count * 4)
        for cell in buffer.cells {
            guard cell.picture == nil else { return nil }
            let index: UInt16
            if let known = styleIndex[cell.style] {
                index = known
            } else {
                guard styles.count < Int(UInt16.max) else { return nil }
                index = UInt16(styles.count)
                styleIndex[cell.style] = index
                styles.append(cell.style)
            }
            let symbol = Array(cell.symbol.utf8)
            guard symbol.count <= maxSymbolBytes else { return nil }
            body.append(littleEndian: index)
            body.append(UInt8(symbol.count))
            body += symbol
        }
        var bytes = magic + [version]
        bytes.append(littleEndian: UInt16(buffer.width))
        bytes.append(littleEndian: UInt16(buffer.height))
        bytes.append(littleEndian: UInt16(styles.count))
        for style in styles {
            append(style.foreground, to: &bytes)
            append(style.background, to: &bytes)
            bytes.append(style.attributes.rawValue)
        }
        return bytes + body
    }

    public static func decode(_ bytes: ArraySlice<UInt8>) -> CellBuffer? {
        bytes.withUnsafeBufferPointer { decode($0) }
    }

    /// The frame these bytes hold, read in place (the last-shelf file's bytes after its header), or nil.
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> CellBuffer? {
        var reader = LittleEndianReader(bytes)
        guard reader.expect(magic), reader.byte() == version,
              let width = reader.integer(UInt16.self).map(Int.init), let height = reader.integer(UInt16.self).map(Int.init),
              width <= maxSide, height <= maxSide, let styleCount = reader.integer(UInt16.self) else { return nil }
        var styles: [TextStyle] = []
        styles.reserveCapacity(Int(styleCount))
        for _ in 0..<styleCount {
            guard let foreground = color(&reader), let background = color(&reader), let attributes = reader.byte() else { return nil }
            styles.append(TextStyle(foreground: foreground, background: background, attributes: TextAttributes(rawValue: attributes)))
        }
        var cells: [Cell] = []
        cells.reserveCapacity(width * height)
        for _ in 0..<(width * height) {
            guard let index = reader.integer(UInt16.self).map(Int.init), index < styles.count, let length = reader.byte().map(Int.init),
                  length <= maxSymbolBytes, let symbolBytes = reader.take(length), let symbol = symbol(symbolBytes) else { return nil }
            cells.append(Cell(symbol: symbol, style: styles[index]))
        }
        guard reader.isAtEnd else { return nil }
        return CellBuffer(width: width, height: height, cells: cells)
    }

    /// The symbol these bytes spell, when it is UTF-8 without a control character; a printable ASCII byte, the most
    /// common symbol by far, is looked up.
    private static func symbol(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if bytes.count == 1 {
            let byte = bytes[0]
            return byte >= 0x20 && byte < 0x7F ? printableASCII[Int(byte - 0x20)] : nil
        }
        guard let symbol = String(validating: bytes, as: UTF8.self), isDrawable(symbol) else { return nil }
        return symbol
    }

    private static let printableASCII = (0x20..<0x7F).map { String(UnicodeScalar(UInt8($0))) }

    /// No C0 or C1 control character: what reaches the terminal from here is text.
    private static func isDrawable(_ symbol: String) -> Bool {
        !symbol.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }
    }

    private static func append(_ color: TerminalColor, to bytes: inout [UInt8]) {
        switch color {
        case .default: bytes += [0, 0, 0, 0]
        case .basic(let value): bytes += [1, value, 0, 0]
        case .indexed(let value): bytes += [2, value, 0, 0]
        case .rgb(let red, let green, let blue): bytes += [3, red, green, blue]
        }
    }

    /// A colour as `append` writes it: a kind and three values.
    private static func color(_ reader: inout LittleEndianReader) -> TerminalColor? {
        guard let field = reader.take(4) else { return nil }
        switch field[0] {
        case 0: return .default
        case 1: return .basic(field[1])
        case 2: return .indexed(field[1])
        case 3: return .rgb(field[1], field[2], field[3])
        default: return nil
        }
    }
}

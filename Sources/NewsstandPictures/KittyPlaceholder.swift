import NewsstandImaging

/// Kitty's Unicode placeholders: how one cell of a picture is written as text so that kitty draws the picture
/// there itself (and the screen's diff, scrolling and tmux's panes carry it like any text).
///
/// The symbol is U+10EEEE followed by three diacritics from kitty's row/column list (row, column, and the kitty
/// image id's high byte); the id's low byte is the cell's foreground colour (a 256-colour index). Kitty's image
/// ids are made from a picture's number (`imageID(for:)`), so the interface above only ever names pictures.
public enum KittyPlaceholder {
    /// The base character of every placeholder.
    public static let base: Unicode.Scalar = "\u{10EEEE}"

    /// Rows and columns a picture may span (one diacritic per number): cells beyond are drawn blank.
    public static var maximumSpan: Int { diacritics.count }

    /// Kitty's image id for picture number `id` (`TerminalPicture.id`, 1…65,025): the low byte 1–255 goes in the
    /// colour and the high byte 0–254 in the third diacritic. Numbers up to 255 are their own image id.
    public static func imageID(for id: UInt32) -> UInt32 {
        let number = (id &- 1) % (255 * 255)
        return (number / 255) << 24 | (number % 255 + 1)
    }

    /// The picture number an image id stands for (the inverse of `imageID(for:)`).
    public static func pictureID(for imageID: UInt32) -> UInt32 {
        (imageID >> 24) * 255 + (imageID & 0xFF)
    }

    /// The text of the placeholder cell showing cell (`row`, `column`) of picture `id`, and the 256-colour index
    /// its foreground must be; nil beyond `maximumSpan`.
    public static func cell(picture id: UInt32, row: Int, column: Int) -> (symbol: String, colour: UInt8)? {
        guard row >= 0, column >= 0, row < maximumSpan, column < maximumSpan else { return nil }
        let image = imageID(for: id)
        var symbol = String.UnicodeScalarView()
        symbol.append(base)
        for number in [row, column, Int(image >> 24)] { symbol.append(Unicode.Scalar(diacritics[number])!) }
        return (String(symbol), UInt8(image & 0xFF))
    }

    /// Reads a placeholder back: the picture number, row and column; nil for any other text.
    public static func read(symbol: String, colour: UInt8) -> (picture: UInt32, row: Int, column: Int)? {
        let scalars = Array(symbol.unicodeScalars)
        guard scalars.count == 4, scalars[0] == base, colour != 0,
              let row = numbers[scalars[1].value], let column = numbers[scalars[2].value],
              let high = numbers[scalars[3].value] else { return nil }
        return (pictureID(for: UInt32(high) << 24 | UInt32(colour)), row, column)
    }

    /// Kitty's row/column diacritics (its `rowcolumn-diacritics.txt`): the combining marks of class 230 in
    /// Unicode 6.0 without decompositions, less a few that normalisation may fuse. The n-th stands for n.
    static let diacritics: [UInt32] = {
        let ranges: [ClosedRange<UInt32>] = [
            0x0305...0x0305, 0x030D...0x030E, 0x0310...0x0310, 0x0312...0x0312, 0x033D...0x033F, 0x0346...0x0346,
            0x034A...0x034C, 0x0350...0x0352, 0x0357...0x0357, 0x035B...0x035B, 0x0363...0x036F, 0x0483...0x0487,
            0x0592...0x0595, 0x0597...0x0599, 0x059C...0x05A1, 0x05A8...0x05A9, 0x05AB...0x05AC, 0x05AF...0x05AF,
            0x05C4...0x05C4, 0x0610...0x0617, 0x0657...0x065B, 0x065D...0x065E, 0x06D6...0x06DC, 0x06DF...0x06E2,
            0x06E4...0x06E4, 0x06E7...0x06E8, 0x06EB...0x06EC, 0x0730...0x0730, 0x0732...0x0733, 0x0735...0x0736,
            0x073A...0x073A, 0x073D...0x073D, 0x073F...0x0741, 0x0743...0x0743, 0x0745...0x0745, 0x0747...0x0747,
            0x0749...0x074A, 0x07EB...0x07F1, 0x07F3...0x07F3, 0x0816...0x0819, 0x081B...0x0823, 0x0825...0x0827,
            0x0829...0x082D, 0x0951...0x0951, 0x0953...0x0954, 0x0F82...0x0F83, 0x0F86...0x0F87, 0x135D...0x135F,
            0x17DD...0x17DD, 0x193A...0x193A, 0x1A17...0x1A17, 0x1A75...0x1A7C, 0x1B6B...0x1B6B, 0x1B6D...0x1B73,
            0x1CD0...0x1CD2, 0x1CDA...0x1CDB, 0x1CE0...0x1CE0, 0x1DC0...0x1DC1, 0x1DC3...0x1DC9, 0x1DCB...0x1DCC,
            0x1DD1...0x1DE6, 0x1DFE...0x1DFE, 0x20D0...0x20D1, 0x20D4...0x20D7, 0x20DB...0x20DC, 0x20E1...0x20E1,
            0x20E7...0x20E7, 0x20E9...0x20E9, 0x20F0...0x20F0, 0x2CEF...0x2CF1, 0x2DE0...0x2DFF, 0xA66F...0xA66F,
            0xA67C...0xA67D, 0xA6F0...0xA6F1, 0xA8E0...0xA8F1, 0xAAB0...0xAAB0, 0xAAB2...0xAAB3, 0xAAB7...0xAAB8,
            0xAABE...0xAABF, 0xAAC1...0xAAC1, 0xFE20...0xFE26, 0x10A0F...0x10A0F, 0x10A38...0x10A38,
            0x1D185...0x1D189, 0x1D1AA...0x1D1AD, 0x1D242...0x1D244,
        ]
        return ranges.flatMap { Array($0) }
    }()

    private static let numbers: [UInt32: Int] = Dictionary(uniqueKeysWithValues: diacritics.enumerated().map { ($1, $0) })
}

import CNcursesw
import Foundation
import NewsstandImaging
import NewsstandPictures
import NewsstandUI

/// The ncurses backend: starts and restores the terminal, draws changed cells, and decodes keys and mouse clicks.
///
/// The only type that calls ncurses. Use it from the main thread only.
final class CursesBackend {
    private var palette: ColorPalette
    private var previousFrame: CellBuffer?
    private(set) var isActive = false
    /// How terminal pictures reach the screen: none (text art only), kitty placeholders, kitty placed directly,
    /// or drawn after the frame; encoded off the UI thread.
    private var pictures = PictureFrameOutput()

    private var isCursorShown = false
    private var lateAnswers = LateAnswerFilter()
    /// The last style drawn and its ncurses colour pair and attributes: neighbouring cells mostly share a style, so
    /// most cells of a frame skip the palette (`put`).
    private var lastStyle: (style: TextStyle, pair: Int32, attributes: attr_t)?
    /// The wide characters of the cell being put (up to 4 and a terminating 0): memory of its own, kept, so putting a
    /// cell neither allocates nor goes through an array's exclusivity and uniqueness checks (a screen is 4,800 cells).
    private let wide = UnsafeMutablePointer<wchar_t>.allocate(capacity: 5)
    /// A run of one-byte cells put at once (`putLine`); a longer run is put in parts.
    private let run = UnsafeMutablePointer<wchar_t>.allocate(capacity: CursesBackend.runCapacity)
    private static let runCapacity = 512

    init(colorMode: ColorMode) {
        palette = ColorPalette(mode: colorMode)
    }

    deinit {
        wide.deallocate()
        run.deallocate()
    }

    /// What the terminal can show, from $COLORTERM and terminfo.
    enum ColorMode {
        case none, basic, indexed, trueColor
    }

    func start() {
        // The user's character set, for ncurses' wide characters: only it. Every category (`LC_ALL`) loaded a dozen
        // locale files (a fifth of a millisecond at each start), and would hand libc's number parsing and messages
        // to the user's locale.
        setlocale(LC_CTYPE, "")
        setenv("ESCDELAY", "25", 0)
        initscr()
        isActive = true
        raw()
        noecho()
        nonl()
        keypad(newsstand_stdscr(), true)
        nodelay(newsstand_stdscr(), true)
        curs_set(0)
        isCursorShown = false
        if has_colors() && palette.mode != .none {
            start_color()
            use_default_colors()
            palette.available = Int(newsstand_colors())
        } else {
            palette.mode = .none
        }
        mousemask(newsstand_button1_clicked() | newsstand_button4_pressed() | newsstand_button5_pressed(), nil)
        mouseinterval(0)
        previousFrame = nil
        lastStyle = nil
        writeFramesWhole()
    }

    /// Makes ncurses write each frame in one piece. Until the screen has once been left and resumed, ncurses 6.4 flushes
    /// its output at every cursor move (`_nc_mvcur`, for "low-level terminfo programs"): a full screen went out in
    /// dozens of writes, a line or less each, that a terminal can show half drawn and ssh sends as many packets. Left
    /// (`endwin`) and resumed (`refresh`) at once, the terminal sees the alternate screen entered, left and entered
    /// again, blank, and the tty is back in raw mode within microseconds; from then on a frame is one write (two for
    /// one larger than ncurses' buffer, a screen and a bit).
    private func writeFramesWhole() {
        endwin()
        refresh()
    }

    /// Gives ncurses back bytes read from the keyboard before it started (keys typed while the terminal was asked).
    func pushBack(typed bytes: [UInt8]) {
        for byte in bytes.reversed() { ungetch(Int32(byte)) }
    }

    /// Shows pictures with `kind` from now on (nil: none). Kitty pictures use Unicode placeholders when
    /// `kittyPlaceholders` (the terminal has them), else are placed directly; `throughTmux` wraps kitty commands for
    /// tmux's passthrough; `background` is what sixel pictures' transparent pixels are composited over.
    /// `onReady` is called off the main thread when a picture's bytes are ready: the caller draws again.
    func usePictures(_ kind: PictureProtocol?, kittyPlaceholders: Bool, throughTmux: Bool, background: RGBColor,
                     onReady: @escaping @Sendable () -> Void) {
        pictures = PictureFrameOutput(kind, kittyPlaceholders: kittyPlaceholders, throughTmux: throughTmux, background: background,
                                      onReady: onReady)
    }

    /// Gives the terminal back as it was, with no picture left on it. Safe to call more than once.
    func stop() {
        guard isActive else { return }
        writeRaw(pictures.deleteAll())
        isActive = false
        curs_set(1)
        endwin()
    }

    var size: (width: Int, height: Int) { Self.terminalSize() }

    /// The terminal's size, from the terminal (else, once started, ncurses' own idea of it).
    static func terminalSize() -> (width: Int, height: Int) {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 && size.ws_row > 0 {
            return (Int(size.ws_col), Int(size.ws_row))
        }
        return (Int(newsstand_cols()), Int(newsstand_lines()))
    }

    /// Tells ncurses about a new size; the next frame is drawn in full.
    func resize(width: Int, height: Int) {
        resizeterm(Int32(height), Int32(width))
        previousFrame = nil
    }

    /// Draws only the cells that differ from the last frame, and the pictures it shows (`PictureFrameOutput`):
    /// kitty pictures are sent before (their placeholder cells are drawn as text), or without placeholders their
    /// gone placements deleted before and new ones placed after, over blank cells; sixel and iTerm2 pictures that
    /// went away are erased before, and the ones new or moved drawn after, over their cells (drawn blank). The
    /// pictures' bytes come ready-made: none is encoded here. Then shows the cursor at `cursor` (screen-reader
    /// mode) or hides it.
    func draw(_ frame: CellBuffer, cursor: (x: Int, y: Int)? = nil) {
        let work = pictures.frame(frame, isFresh: previousFrame == nil)
        writeRaw(work.before)
        if previousFrame == nil { clearok(newsstand_stdscr(), true) }
        if previousFrame == nil || previousFrame!.width != frame.width || previousFrame!.height != frame.height {
            // Everything is drawn: the cells in order, without listing them as changes first.
            for y in 0..<frame.height { putLine(y, of: frame) }
        } else {
            for change in BufferDiff.changes(from: previousFrame, to: frame) {
                put(change.cell.picture.map(pictures.text(for:)) ?? change.cell, x: change.x, y: change.y)
            }
        }
        previousFrame = frame
        if let cursor, cursor.x >= 0, cursor.y >= 0, cursor.x < frame.width, cursor.y < frame.height {
            if !isCursorShown { curs_set(1) }
            isCursorShown = true
            move(Int32(cursor.y), Int32(cursor.x))
        } else if isCursorShown {
            curs_set(0)
            isCursorShown = false
        }
        refresh()
        writeRaw(work.after)
    }

    /// Writes bytes straight to the terminal, between ncurses' own (flushed) output.
    private func writeRaw(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        fflush(nil)
        var offset = 0
        bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let written = write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 { offset += written } else if errno != EINTR && errno != EAGAIN { break }
            }
        }
    }

    /// Puts a whole line: runs of one-byte (ASCII) cells of one style in one call each, with the style set once (most
    /// of a screen: a first frame is 4,800 cells), every other cell as `put` does.
    private func putLine(_ y: Int, of frame: CellBuffer) {
        var x = 0
        while x < frame.width {
            let cell = frame[x, y]
            guard cell.picture == nil, let first = Self.singleByte(cell.symbol) else {
                if !cell.isContinuation { put(cell.picture.map(pictures.text(for:)) ?? cell, x: x, y: y) }
                x += 1
                continue
            }
            run[0] = wchar_t(first)
            var end = x + 1
            while end < frame.width, end - x < Self.runCapacity {
                let next = frame[end, y]
                guard next.picture == nil, next.style == cell.style, let byte = Self.singleByte(next.symbol) else { break }
                run[end - x] = wchar_t(byte)
                end += 1
            }
            let (pair, attributes) = drawn(cell.style)
            var extendedPair = pair
            wattr_set(newsstand_stdscr(), attributes, Self.shortPair(pair), &extendedPair)
            mvaddnwstr(Int32(y), Int32(x), run, Int32(end - x))
            // The window's attributes are merged into every character added after: back to none for `put`'s cells.
            wattr_set(newsstand_stdscr(), 0, 0, nil)
            x = end
        }
    }

    /// The byte of a one-byte printable ASCII symbol; nil for anything else (a control character, which a run's
    /// ncurses call would act on, goes through `put` as it always has).
    private static func singleByte(_ symbol: String) -> UInt8? {
        let utf8 = symbol.utf8
        guard utf8.count == 1, let byte = utf8.first, (0x20...0x7E).contains(byte) else { return nil }
        return byte
    }

    private func put(_ cell: Cell, x: Int, y: Int) {
        var character = cchar_t()
        var count = 0
        if let byte = Self.singleByte(cell.symbol) {
            // One byte: ASCII, as most changed cells are, without walking the scalars.
            wide[0] = wchar_t(byte)
            count = 1
        } else {
            for scalar in cell.symbol.unicodeScalars.prefix(4) {
                wide[count] = wchar_t(bitPattern: scalar.value)
                count += 1
            }
        }
        if count == 0 {
            wide[0] = 32
            count = 1
        }
        wide[count] = 0
        let (pair, attributes) = drawn(cell.style)
        var extendedPair = pair
        setcchar(&character, wide, attributes, Self.shortPair(pair), &extendedPair)
        mvadd_wch(Int32(y), Int32(x), &character)
    }

    /// A colour pair for ncurses' 16-bit argument (capped); the whole number goes in the extended-pair argument beside it.
    private static func shortPair(_ pair: Int32) -> Int16 { Int16(truncatingIfNeeded: min(pair, Int32(Int16.max))) }

    /// The colour pair and ncurses attributes of a style: the last style's again, else from the palette.
    private func drawn(_ style: TextStyle) -> (pair: Int32, attributes: attr_t) {
        if let lastStyle, lastStyle.style == style { return (lastStyle.pair, lastStyle.attributes) }
        let (pair, drawnStyle) = palette.drawn(style)
        var attributes: attr_t = 0
        if drawnStyle.contains(.bold) { attributes |= newsstand_attr_bold() }
        if drawnStyle.contains(.dim) { attributes |= newsstand_attr_dim() }
        if drawnStyle.contains(.italic) { attributes |= newsstand_attr_italic() }
        if drawnStyle.contains(.underline) { attributes |= newsstand_attr_underline() }
        if drawnStyle.contains(.reverse) { attributes |= newsstand_attr_reverse() }
        lastStyle = (style, Int32(pair), attributes)
        return (Int32(pair), attributes)
    }

    /// Reads every key waiting on the terminal, without blocking; late answers to the start-up questions are dropped.
    func readKeys() -> [TerminalInput] {
        var read: [LateAnswerFilter.Input] = []
        var value: wint_t = 0
        while true {
            let status = get_wch(&value)
            if status == ERR { break }
            read.append(status == KEY_CODE_YES ? .keyCode(Int32(value)) : .character(UInt32(value)))
        }
        return lateAnswers.keys(in: read).compactMap { input in
            switch input {
            case .keyCode(let code): return decodeFunctionKey(code)
            case .character(let character): return decodeCharacter(character)
            }
        }
    }

    private func decodeCharacter(_ value: UInt32) -> TerminalInput? {
        switch value {
        case 0x0D, 0x0A: return .key(.enter)
        case 0x1B: return .key(.escape)
        case 0x09: return .key(.tab)
        case 0x7F, 0x08: return .key(.backspace)
        case 0x01...0x1A: return .key(.control(Character(Unicode.Scalar(value + 0x60)!)))
        default:
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return .key(.character(Character(scalar)))
        }
    }

    private func decodeFunctionKey(_ code: Int32) -> TerminalInput? {
        switch code {
        case KEY_UP: return .key(.up)
        case KEY_DOWN: return .key(.down)
        case KEY_LEFT: return .key(.left)
        case KEY_RIGHT: return .key(.right)
        case KEY_NPAGE: return .key(.pageDown)
        case KEY_PPAGE: return .key(.pageUp)
        case KEY_HOME: return .key(.home)
        case KEY_END: return .key(.end)
        case KEY_BTAB: return .key(.backTab)
        case KEY_ENTER: return .key(.enter)
        case KEY_BACKSPACE: return .key(.backspace)
        case newsstand_key_resize(): return .resized
        case newsstand_key_mouse():
            var event = MEVENT()
            guard getmouse(&event) == OK else { return nil }
            if event.bstate & newsstand_button4_pressed() != 0 { return .key(.scrollUp) }
            if newsstand_button5_pressed() != 0 && event.bstate & newsstand_button5_pressed() != 0 { return .key(.scrollDown) }
            if event.bstate & newsstand_button1_clicked() != 0 { return .key(.mouseClick(x: Int(event.x), y: Int(event.y))) }
            return nil
        default: return nil
        }
    }
}

/// What the terminal reported: a key, or that its size changed.
enum TerminalInput: Equatable {
    case key(Key)
    case resized
}

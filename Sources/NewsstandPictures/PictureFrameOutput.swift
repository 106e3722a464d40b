import NewsstandImaging
import NewsstandUI

/// What the backend writes for the terminal pictures of each frame, in the way the terminal shows them: none
/// (text art only), kitty's Unicode placeholders, kitty pictures placed directly, or sixel and iTerm2 pictures
/// drawn after the frame. The frame only says which cells show which picture (`PictureCell`); this type turns
/// that into bytes and into the text drawn in those cells.
///
/// Encoding (kitty's PNG, sixel) never runs here: `encoder` does it on its own queue and this type writes the
/// bytes once they are ready; the frames drawn meanwhile leave the picture out, and `onReady` (called off the
/// UI thread) tells the front end to draw again. So opening a page with a large cover does not hold up a key.
public struct PictureFrameOutput {
    private enum Kind {
        case none
        case kitty(KittyPictureSender)
        case kittyDirect(KittyDirectPlacer)
        case overlay(OverlayPictureDrawer)
    }

    private var kind: Kind
    /// Pictures are encoded here, off the UI thread.
    public let encoder: PictureEncodingQueue?

    /// Shows no pictures.
    public init() {
        kind = .none
        encoder = nil
    }

    /// Shows pictures with `protocolKind` (nil: none). Kitty pictures use Unicode placeholders when
    /// `kittyPlaceholders` (the terminal has them) or `throughTmux` (only they follow tmux's panes), else are placed
    /// directly; `background` is what sixel pictures' transparent pixels are composited over.
    /// - Parameters:
    ///   - encode: the encoding function (nil: the protocol's own; tests give a slow stand-in).
    ///   - onReady: called on the encoder's queue when a picture's bytes are ready to be written.
    public init(_ protocolKind: PictureProtocol?, kittyPlaceholders: Bool, throughTmux: Bool, background: RGBColor,
                encode: PictureEncodingQueue.Encode? = nil, onReady: @escaping @Sendable () -> Void = {}) {
        let output: PictureEncodingQueue.Output
        switch protocolKind {
        case nil:
            kind = .none
            encoder = nil
            return
        case .kitty? where kittyPlaceholders || throughTmux: output = .kittyPlaceholders(throughTmux: throughTmux)
        case .kitty?: output = .kittyDirect
        case .sixel?: output = .sixel(background: background)
        case .iterm?: output = .iterm
        }
        let encoder = PictureEncodingQueue(encode: encode ?? PictureEncodingQueue.encoder(for: output)) { _ in onReady() }
        self.encoder = encoder
        switch output {
        case .kittyPlaceholders(let throughTmux): kind = .kitty(KittyPictureSender(throughTmux: throughTmux, encoder: encoder))
        case .kittyDirect: kind = .kittyDirect(KittyDirectPlacer(encoder: encoder))
        case .sixel, .iterm: kind = .overlay(OverlayPictureDrawer(encoder: encoder))
        }
    }

    /// The bytes to write for `frame`: `before` its cells are drawn, `after` them. `isFresh`: the screen is drawn
    /// afresh (started, resized), so every picture is shown again.
    public mutating func frame(_ frame: CellBuffer, isFresh: Bool) -> (before: [UInt8], after: [UInt8]) {
        switch kind {
        case .none:
            return ([], [])
        case .kitty(var sender):
            let before = sender.commands(for: frame)
            kind = .kitty(sender)
            return (before, [])
        case .kittyDirect(var placer):
            if isFresh { placer.forgetScreen() }
            let work = placer.update(for: frame)
            kind = .kittyDirect(placer)
            return work
        case .overlay(var drawer):
            if isFresh { drawer.forgetScreen() }
            let work = drawer.update(for: frame)
            kind = .overlay(drawer)
            return (OverlayPictureDrawer.eraseCommands(work.erase), work.draw)
        }
    }

    /// What to draw in a cell that shows a picture: kitty's placeholder (kitty draws the picture there), else a
    /// blank cell the picture is drawn over.
    public func text(for picture: PictureCell) -> Cell {
        guard case .kitty = kind, let placeholder = KittyPlaceholder.cell(picture: picture.id, row: picture.row, column: picture.column) else {
            return Cell()
        }
        return Cell(symbol: placeholder.symbol, style: TextStyle(foreground: .indexed(placeholder.colour)))
    }

    /// The bytes that take every picture off the terminal (when the program ends).
    public mutating func deleteAll() -> [UInt8] {
        switch kind {
        case .none:
            return []
        case .kitty(var sender):
            defer { kind = .kitty(sender) }
            return sender.deleteAll()
        case .kittyDirect(var placer):
            defer { kind = .kittyDirect(placer) }
            return placer.deleteAll()
        case .overlay(let drawer):
            return OverlayPictureDrawer.eraseCommands(drawer.shown.map(\.area))
        }
    }
}

import Dispatch
import Foundation
import NewsstandImaging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Encodes terminal pictures off the UI thread and keeps the bytes ready for the backend to write.
///
/// The backend asks for the bytes of a picture (or of the part of it that is visible) while it draws a frame:
/// when they are ready it gets them at once; when not, the work is queued (once) on this type's own serial
/// queue and the backend draws the frame without the picture; when the bytes are ready `onReady` is called
/// (on that queue) so the front end draws again. Kitty PNG and sixel encoding take 5–13 ms for an issue page's
/// cover, which the UI thread no longer waits for: keys are handled and frames drawn meanwhile.
///
/// The encoding itself is a function of the picture and the part (`Encode`), chosen by the protocol
/// (`PictureEncodingQueue.encoder(for:)`) or injected (tests: a slow stand-in). Ready bytes are kept up to
/// `capacity` parts (48, as many sixel parts as the overlay kept before), the least recently asked for dropped
/// first; kitty's are dropped once sent (the terminal keeps the picture). A part that failed to encode is not
/// tried again.
///
/// The work runs on a thread of its own at a lower priority (nice 10): on a busy machine the UI thread takes
/// the CPU from it, so a picture being encoded costs a keypress nothing.
public final class PictureEncodingQueue: Sendable {
    /// What to encode: a picture, and the cells of it that show (the whole picture, or the visible part).
    public struct Part: Hashable, Sendable {
        public let id: UInt32
        public let row: Int
        public let column: Int
        public let rows: Int
        public let columns: Int

        public init(id: UInt32, row: Int, column: Int, rows: Int, columns: Int) {
            self.id = id
            self.row = row
            self.column = column
            self.rows = rows
            self.columns = columns
        }

        /// The whole of `picture`.
        public static func whole(_ picture: TerminalPicture) -> Part {
            Part(id: picture.id, row: 0, column: 0, rows: picture.rows, columns: picture.columns)
        }

        public func isWhole(of picture: TerminalPicture) -> Bool {
            row == 0 && column == 0 && rows == picture.rows && columns == picture.columns
        }
    }

    public typealias Encode = @Sendable (TerminalPicture, Part) throws -> [UInt8]

    private let encode: Encode
    private let onReady: @Sendable (Part) -> Void
    private let worker = Worker()
    private let capacity: Int
    private let parts = Mutex(Parts())

    /// The bytes ready (least recently asked for first), the parts under way and those that failed.
    private struct Parts {
        var ready: [Part: [UInt8]] = [:]
        var readyOrder: [Part] = []
        var pending: Set<Part> = []
        var failed: Set<Part> = []
    }

    public init(capacity: Int = 48, encode: @escaping Encode, onReady: @escaping @Sendable (Part) -> Void = { _ in }) {
        self.capacity = max(1, capacity)
        self.encode = encode
        self.onReady = onReady
    }

    /// The bytes of `part` of `picture` when they are ready; otherwise queues their encoding (once) and returns nil.
    public func bytes(_ part: Part, of picture: TerminalPicture) -> [UInt8]? {
        let start: Bool = parts.withLock { parts in
            if parts.ready[part] != nil {
                if let index = parts.readyOrder.firstIndex(of: part) { parts.readyOrder.remove(at: index) }
                parts.readyOrder.append(part)
                return false
            }
            guard !parts.failed.contains(part), !parts.pending.contains(part) else { return false }
            parts.pending.insert(part)
            return true
        }
        if start { worker.add { self.run(part, of: picture) } }
        return parts.withLock { $0.ready[part] }
    }

    /// Queues `part` of `picture` ahead of its first frame (nothing when it is ready or under way).
    public func prepare(_ part: Part, of picture: TerminalPicture) {
        _ = bytes(part, of: picture)
    }

    /// Drops the bytes of every part of picture `id` (kitty: sent once, the terminal keeps it).
    public func forget(id: UInt32) {
        parts.withLock { parts in
            for part in parts.ready.keys where part.id == id { parts.ready[part] = nil }
            parts.readyOrder.removeAll { $0.id == id }
        }
    }

    /// Whether `part` could not be encoded (it is not tried again).
    public func hasFailed(_ part: Part) -> Bool { parts.withLock { $0.failed.contains(part) } }

    /// Waits until the work queued so far is done (tests, benchmarks).
    public func waitUntilIdle() {
        let done = DispatchSemaphore(value: 0)
        worker.add { done.signal() }
        done.wait()
    }

    deinit { worker.stop() }

    private func run(_ part: Part, of picture: TerminalPicture) {
        let bytes = try? encode(picture, part)
        parts.withLock { parts in
            parts.pending.remove(part)
            guard let bytes else {
                parts.failed.insert(part)
                return
            }
            parts.ready[part] = bytes
            parts.readyOrder.append(part)
            while parts.readyOrder.count > capacity { parts.ready[parts.readyOrder.removeFirst()] = nil }
        }
        if bytes != nil { onReady(part) }
    }
}

/// One thread that runs jobs in order, at nice 10 (below the UI thread), until stopped.
private final class Worker: Sendable {
    private struct Jobs {
        var waiting: [@Sendable () -> Void] = []
        var isStopped = false
    }

    private let jobs = Mutex(Jobs())
    /// Signalled once per job added and once by `stop()`.
    private let wakeUps = DispatchSemaphore(value: 0)

    init() {
        let thread = Thread { [self] in run() }
        thread.name = "newsstand.pictures.encode"
        thread.start()
    }

    func add(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.waiting.append(job) }
        wakeUps.signal()
    }

    /// Ends the thread once the jobs already added are done.
    func stop() {
        jobs.withLock { $0.isStopped = true }
        wakeUps.signal()
    }

    private func run() {
        #if canImport(Glibc)
        // On Linux the nice value belongs to the thread, and 0 names the calling one.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
        while true {
            wakeUps.wait()
            // A job's wake-up may be taken by an earlier job; the last wake-up finds none left, and the stop.
            let (job, isStopped) = jobs.withLock { jobs in
                (jobs.waiting.isEmpty ? nil : jobs.waiting.removeFirst(), jobs.isStopped)
            }
            if let job {
                job()
            } else if isStopped {
                return
            }
        }
    }
}

extension PictureEncodingQueue {
    /// How pictures are encoded for a protocol.
    public enum Output: Sendable, Equatable {
        /// Kitty with Unicode placeholders: the whole picture transmitted with a virtual placement.
        case kittyPlaceholders(throughTmux: Bool)
        /// Kitty placed directly: the whole picture transmitted, to be placed by the backend.
        case kittyDirect
        /// Sixel, transparent pixels composited over `background`: the whole picture, or the visible part.
        case sixel(background: RGBColor)
        /// iTerm2's inline images: the whole picture, or the visible part.
        case iterm
    }

    /// The encoding function of a protocol.
    public static func encoder(for output: Output) -> Encode {
        switch output {
        case .kittyPlaceholders(let throughTmux):
            return { picture, _ in
                let bytes = try KittyGraphics.transmit(picture)
                return throughTmux ? TmuxPassthrough.wrap(bytes) : bytes
            }
        case .kittyDirect:
            return { picture, _ in try KittyGraphics.transmit(picture, forPlaceholders: false) }
        case .sixel(let background):
            return { picture, part in try SixelEncoder.encode(crop(picture, to: part), background: background) }
        case .iterm:
            return { picture, part in try ITermImages.inline(crop(picture, to: part), columns: part.columns, rows: part.rows) }
        }
    }

    /// The pixels of `part` of `picture` (all of them for the whole picture).
    public static func crop(_ picture: TerminalPicture, to part: Part) -> RasterImage {
        if part.isWhole(of: picture) { return picture.image }
        let cellWidth = picture.image.width / max(1, picture.columns), cellHeight = picture.image.height / max(1, picture.rows)
        return crop(picture.image, x: part.column * cellWidth, y: part.row * cellHeight,
                    width: part.columns * cellWidth, height: part.rows * cellHeight)
    }

    /// The part of `image` in the rectangle (clipped to the image).
    public static func crop(_ image: RasterImage, x: Int, y: Int, width: Int, height: Int) -> RasterImage {
        let left = max(0, min(x, image.width)), top = max(0, min(y, image.height))
        let right = max(left, min(x + width, image.width)), bottom = max(top, min(y + height, image.height))
        if left == 0, top == 0, right == image.width, bottom == image.height { return image }
        var pixels: [UInt8] = []
        pixels.reserveCapacity((right - left) * (bottom - top) * 4)
        for row in top..<bottom {
            let start = (row * image.width + left) * 4
            pixels += image.pixels[start..<(start + (right - left) * 4)]
        }
        return RasterImage(width: right - left, height: bottom - top, pixels: pixels)
    }
}

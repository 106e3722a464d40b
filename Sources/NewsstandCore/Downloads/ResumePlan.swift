import Foundation

/// The resume protocol of one asset as values: what a request asks for given the partial file on disk and
/// its sidecar, what a response's head means for that partial, what a 416 means, and what comes after a
/// body has ended. Pure (no file, network or clock): `AssetTransfer` reads the disk, asks, and carries out
/// what the plan decides.
///
/// A partial continues only when it is provably the same representation: its sidecar names the same URL,
/// it is not longer than the length the sidecar states, and the server's answer agrees. The request asks
/// for `Range: bytes=N-` with `If-Range` (the stored validator); a 206 is appended only when its
/// Content-Range starts at N and its total and validator agree. A 200, a changed validator or a range that
/// does not fit start the file over. A 416 for a partial that already holds the stated length finishes
/// it, and a 416 naming a total equal to a partial of unknown length completes it.
struct ResumePlan: Equatable, Sendable {
    /// The asset's URL, as its sidecar stores it.
    let url: String
    /// Bytes of the partial file the request continues from (0: from the start).
    let offset: Int64
    /// The sidecar the request continues from; nil when it starts from zero.
    let stored: PartialMetadata?
    /// The last byte asked for when the request asks for a slice (under a rate limit), else nil.
    let sliceLast: Int64?

    /// The plan for the next request, from the partial file's size on disk and its sidecar.
    /// - Parameter bytesPerSecond: the queue's rate limit; under one the request asks for a slice of about
    ///   a second's worth (`sliceLength`).
    init(url: String, onDisk: Int64, stored: PartialMetadata?, bytesPerSecond: Int?) {
        self.url = url
        if let stored, stored.url == url, onDisk > 0, stored.length.map({ onDisk <= $0 }) ?? true {
            offset = onDisk
            self.stored = stored
        } else {
            offset = 0
            self.stored = nil
        }
        sliceLast = bytesPerSecond.map { [offset] in offset + Self.sliceLength(bytesPerSecond: $0) - 1 }
    }

    /// The request asks for a closed range (a slice).
    var asksForSlice: Bool { sliceLast != nil }

    /// The headers the request sends: identity encoding (byte offsets are file offsets), the range, and
    /// `If-Range` with the stored validator when it continues a partial.
    var headers: [String: String] {
        var headers = ["Accept-Encoding": "identity"]
        if offset > 0, let validator = stored?.validator { headers["If-Range"] = validator }
        if let sliceLast {
            headers["Range"] = "bytes=\(offset)-\(sliceLast)"
        } else if offset > 0 {
            headers["Range"] = "bytes=\(offset)-"
        }
        return headers
    }

    /// About one second's worth at the limit, between 64 KiB and 4 MiB.
    static func sliceLength(bytesPerSecond: Int) -> Int64 {
        Int64(min(max(bytesPerSecond, 64 << 10), 4 << 20))
    }

    // MARK: The response

    /// What a successful response (2xx or 304) means for the partial file.
    enum Answer: Equatable {
        /// The body goes to the partial file, appended at `offset` or from zero, under this sidecar.
        /// `remaining`: the bytes still to come, when known (the disk must have room for them);
        /// `sliceLast`: the last byte the reply ends on when it is a slice.
        case accept(PartialMetadata, append: Bool, remaining: Int64?, sliceLast: Int64?)
        /// The reply does not fit the partial (a range that starts elsewhere, another total or validator):
        /// the download starts over from zero.
        case startOver
        /// Not a readable issue (a web page, audio or video): the sentence says what came.
        case notAnIssue(String)
        /// A status the download cannot use (a 304, a 2xx other than 200 and 206 to a range).
        case unusable(status: Int)
    }

    /// The answer to a response's head.
    func answer(_ head: HTTPResponseHead) -> Answer {
        let contentRange = head.header("Content-Range").flatMap(ContentRange.init)
        let validator = Self.validator(etag: head.header("ETag"), lastModified: head.header("Last-Modified"))
        switch head.status {
        case 206 where offset == 0 && stored == nil && asksForSlice:
            // The first slice of a rate-limited download: a fresh start, like a 200, told the total by Content-Range.
            guard let contentRange, contentRange.first == 0 else { return .startOver }
            if let problem = AssetContentCheck.webPageProblem(head) { return .notAnIssue(problem) }
            let length = contentRange.total ?? lengthIfLastSlice(contentRange)
            return .accept(PartialMetadata(url: url, validator: validator, length: length), append: false, remaining: length,
                           sliceLast: contentRange.last)
        case 206:
            guard offset > 0, let stored, let contentRange, contentRange.first == offset, isSameRepresentation(validator),
                  contentRange.total == nil || stored.length == nil || contentRange.total == stored.length else { return .startOver }
            if let problem = AssetContentCheck.webPageProblem(head) { return .notAnIssue(problem) }
            var updated = stored
            updated.length = contentRange.total ?? stored.length ?? (asksForSlice ? lengthIfLastSlice(contentRange) : nil)
            return .accept(updated, append: true, remaining: (updated.length ?? contentRange.last + 1) - contentRange.first,
                           sliceLast: asksForSlice ? contentRange.last : nil)
        case 200..<300:
            if let problem = AssetContentCheck.webPageProblem(head) { return .notAnIssue(problem) }
            let length = head.contentLength
            return .accept(PartialMetadata(url: url, validator: validator, length: length), append: false, remaining: length,
                           sliceLast: nil)
        default:
            return .unusable(status: head.status)
        }
    }

    /// What a 416 (Range Not Satisfiable) means.
    enum RangeRefusal: Equatable {
        /// The partial already holds the whole asset: it is complete under this sidecar. `learnedLength`: the
        /// sidecar had no length and the 416 told it, so the sidecar is written again.
        case complete(PartialMetadata, learnedLength: Bool)
        /// The partial does not belong to what the server has: the download starts over from zero.
        case startOver
    }

    /// The answer to a 416 for this request.
    func rangeNotSatisfiable(_ head: HTTPResponseHead) -> RangeRefusal {
        let validator = Self.validator(etag: head.header("ETag"), lastModified: head.header("Last-Modified"))
        let total = head.header("Content-Range").flatMap(ContentRange.init)?.total
        guard offset > 0, let stored, isSameRepresentation(validator) else { return .startOver }
        if let length = stored.length, offset == length, total == nil || total == length {
            return .complete(stored, learnedLength: false)
        }
        if stored.length == nil, total == offset {
            // The server would not say the length before; now it does, and the partial has all of it.
            var learned = stored
            learned.length = offset
            return .complete(learned, learnedLength: true)
        }
        return .startOver
    }

    /// What comes after a response's body has ended without an error.
    enum AfterBody: Equatable {
        /// A whole slice arrived and more of the asset remains: ask for the next one.
        case nextSlice
        /// The partial holds the whole asset (or all there is, when the length is unknown).
        case complete
        /// The body stopped before the stated length.
        case stoppedEarly(onDisk: Int64, length: Int64)
    }

    /// - Parameters:
    ///   - onDisk: bytes now in the partial file.
    ///   - sliceLast: the last byte the reply ended on when it was a slice (`Answer.accept`'s).
    ///   - length: the asset's length as the sidecar now states it.
    static func afterBody(onDisk: Int64, sliceLast: Int64?, length: Int64?) -> AfterBody {
        if let sliceLast, onDisk == sliceLast + 1, length.map({ onDisk < $0 }) ?? true { return .nextSlice }
        if let length, onDisk != length { return .stoppedEarly(onDisk: onDisk, length: length) }
        return .complete
    }

    // MARK: File URLs

    /// Where a copy of a local file continues: from the partial when its sidecar describes the same file
    /// (`source`: its URL, size and modification time as a validator, its size as the length) and the partial
    /// is not longer; else from zero.
    static func fileOffset(onDisk: Int64, stored: PartialMetadata?, source: PartialMetadata) -> Int64 {
        guard let size = source.length, onDisk > 0, onDisk <= size, stored == source else { return 0 }
        return onDisk
    }

    // MARK: Helpers

    /// A response's validator agrees with the stored one (either being unknown counts as agreeing: the
    /// range's position and total are still checked).
    private func isSameRepresentation(_ validator: String?) -> Bool {
        validator == nil || stored?.validator == nil || validator == stored?.validator
    }

    /// The whole length, when a slice's reply of unknown total (`bytes N-M/*`) ends before the slice
    /// asked for: then it is the last one.
    private func lengthIfLastSlice(_ range: ContentRange) -> Int64? {
        sliceLast.flatMap { range.last < $0 ? range.last + 1 : nil }
    }

    /// The validator stored with a partial: a strong ETag, else Last-Modified.
    static func validator(etag: String?, lastModified: String?) -> String? {
        if let etag, !etag.isEmpty, !etag.hasPrefix("W/") { return etag }
        if let lastModified, !lastModified.isEmpty { return lastModified }
        return nil
    }
}

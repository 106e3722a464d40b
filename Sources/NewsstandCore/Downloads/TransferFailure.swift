import Foundation

/// Why a transfer stopped, and whether trying again could help.
struct TransferFailure: Error, Equatable {
    enum Kind: Equatable {
        /// Worth another attempt (timeouts, stalls, dropped connections, 5xx, 408, 429), after at least `retryAfter` seconds if given.
        case transient(retryAfter: TimeInterval?)
        /// Trying again will not help (refused, gone, not an issue, too large, disk full).
        case permanent
        /// Stopped on request (pause or cancel).
        case cancelled
    }

    let reason: String
    let kind: Kind
    /// A permanent failure whose partial file is worth keeping: the disk's free space reached the reserve, and
    /// once space is freed the download continues from what it holds.
    var keepsPartial = false

    static func permanent(_ reason: String) -> TransferFailure { TransferFailure(reason: reason, kind: .permanent) }
    static func transient(_ reason: String, retryAfter: TimeInterval? = nil) -> TransferFailure {
        TransferFailure(reason: reason, kind: .transient(retryAfter: retryAfter))
    }
    /// Permanent, keeping the partial file for a later attempt.
    static func stopped(_ reason: String) -> TransferFailure { TransferFailure(reason: reason, kind: .permanent, keepsPartial: true) }
    static let cancelled = TransferFailure(reason: "cancelled", kind: .cancelled)
}

// MARK: Classification

extension TransferFailure {
    /// What a failed request means for the download, in the words the row shows.
    /// - Parameters:
    ///   - host: the server's name, for the sentences.
    ///   - tooLarge: what to say when the body passes the download's size bound.
    static func classifying(_ error: HTTPError, host: String, tooLarge: String) -> TransferFailure {
        switch error {
        case .status(let head):
            let status = head.status
            let phrase = reasonPhrase(status)
            switch status {
            case 401, 403:
                return .permanent("the server refused access (\(status) \(phrase))")
            case 404, 410:
                return .permanent("the issue is no longer on the server (\(status) \(phrase))")
            case 408, 429, 500...599:
                return .transient("\(host) answered \(status) \(phrase)", retryAfter: retryAfter(head.header("Retry-After")))
            default:
                return .permanent("\(host) answered \(status) \(phrase)")
            }
        case .tooLarge:
            return .permanent(tooLarge)
        case .sink(let reason):
            return .permanent(reason)
        case .cancelled:
            return .transient("the transfer from \(host) stopped")
        default:
            return error.isTransient ? .transient(error.description) : .permanent(error.description)
        }
    }

    /// Any error thrown while a transfer writes its partial file, as a failure.
    static func from(_ error: Error) -> TransferFailure {
        switch error {
        case let failure as TransferFailure: failure
        case let error as DownloadError: .permanent(error.description)
        default: .permanent("cannot write the download: \(error.localizedDescription)")
        }
    }

    /// Retry-After as seconds from now: delta-seconds or an HTTP-date.
    static func retryAfter(_ value: String?, now: Date = Date()) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return TimeInterval(max(0, seconds)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: value) { return max(0, date.timeIntervalSince(now)) }
        }
        return nil
    }

    static func reasonPhrase(_ status: Int) -> String {
        let phrases: [Int: String] = [
            400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
            408: "Request Timeout", 410: "Gone", 416: "Range Not Satisfiable", 429: "Too Many Requests",
            500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
        ]
        return phrases[status] ?? HTTPResponseHead.standardReasons[status] ?? "(status \(status))"
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A representation ready to be sent: an in-memory resource or a file opened under the server's root.
struct ServedEntity {
    /// Where the body bytes come from.
    enum Body {
        case data(Data)
        case file(OpenFile)
    }

    let body: Body
    let length: Int
    let contentType: String
    /// A quoted strong entity tag.
    let etag: String
    /// Whole seconds.
    let lastModified: Date
    /// Further response headers, sent as given (an in-memory resource's `headers`).
    var extraHeaders: [(String, String)] = []

    /// The result of looking a request path up.
    enum Lookup {
        case found(ServedEntity)
        case forbidden
        case notFound
    }

    /// Opens the regular file at `path` (percent-decoded, starting with "/") under `rootPath` (already
    /// symlink-resolved). `..` components and symlinks leading out of the root are refused.
    static func file(atRequestPath path: String, rootPath: String) -> Lookup {
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        if components.contains("..") { return .forbidden }
        let relative = components.filter { $0 != "." }.joined(separator: "/")
        let candidate = relative.isEmpty ? rootPath : (rootPath as NSString).appendingPathComponent(relative)
        let resolved = URL(fileURLWithPath: candidate).resolvingSymlinksInPath().path
        let rootPrefix = rootPath.hasSuffix("/") ? rootPath : rootPath + "/"
        guard resolved == rootPath || resolved.hasPrefix(rootPrefix) else { return .forbidden }

        let fd = open(resolved, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return errno == EACCES ? .forbidden : .notFound }
        let file = OpenFile(fd: fd)
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .notFound }
        #if os(Linux)
        let seconds = Int(info.st_mtim.tv_sec), nanoseconds = Int(info.st_mtim.tv_nsec)
        #else
        let seconds = Int(info.st_mtimespec.tv_sec), nanoseconds = Int(info.st_mtimespec.tv_nsec)
        #endif
        let size = Int(info.st_size)
        let etag = "\"\(String(size, radix: 16))-\(String(seconds, radix: 16)).\(String(nanoseconds, radix: 16))\""
        let name = (resolved as NSString).lastPathComponent
        return .found(ServedEntity(body: .file(file), length: size,
                                   contentType: MIMETypes.contentType(forFileName: name),
                                   etag: etag, lastModified: Date(timeIntervalSince1970: TimeInterval(seconds))))
    }
}

/// An open file descriptor, closed when the last reference goes away.
final class OpenFile {
    let fd: Int32
    init(fd: Int32) { self.fd = fd }
    deinit { close(fd) }
}

/// An in-memory resource registered with ``LocalHTTPServer/setResource(_:data:contentType:etag:lastModified:)``.
struct StoredResource: Sendable {
    let data: Data
    let contentType: String
    let etag: String
    let lastModified: Date
    let extraHeaders: [(String, String)]

    var entity: ServedEntity {
        ServedEntity(body: .data(data), length: data.count, contentType: contentType, etag: etag, lastModified: lastModified,
                     extraHeaders: extraHeaders)
    }
}

import CArchive
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Unpacks zip files (and anything else libarchive reads) into an issue folder, refusing
/// archives that try to escape it, carry links or special files, or expand too far.
public enum ArchiveExtractor {
    /// Extracts a zip (or any libarchive format) into `destination` (created if needed).
    ///
    /// Rejects the whole archive — throws, and removes what it wrote — when any entry is
    /// absolute, contains `..`, is a symlink or hard link, a device, fifo or socket, is
    /// encrypted, or when `limits` are exceeded. Limits are enforced on bytes actually
    /// written, not on the sizes the archive claims. Never writes outside `destination`.
    public static func extract(archive: URL, into destination: URL, limits: ExtractionLimits = .default) throws {
        let fileManager = FileManager.default
        let archivePath = archive.path
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: archivePath, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw ArchiveExtractionError("archive \(archive.lastPathComponent) not found")
        }
        let archiveSize = ((try? fileManager.attributesOfItem(atPath: archivePath)[.size]) as? NSNumber)?.int64Value ?? 0

        let root = destination.standardizedFileURL
        var destinationIsFolder: ObjCBool = false
        let destinationExisted = fileManager.fileExists(atPath: root.path, isDirectory: &destinationIsFolder)
        if destinationExisted, !destinationIsFolder.boolValue {
            throw ArchiveExtractionError("destination \(root.path) exists and is not a folder")
        }
        var session = ExtractionSession(root: root, limits: limits, archiveSize: archiveSize)
        do {
            if !destinationExisted {
                try fileManager.createDirectory(at: root, withIntermediateDirectories: true)
            }
            try session.run(archivePath: archivePath)
        } catch {
            if destinationExisted {
                session.removeCreatedItems()
            } else {
                try? fileManager.removeItem(at: root)
            }
            if let error = error as? ArchiveExtractionError { throw error }
            throw ArchiveExtractionError("could not extract \(archive.lastPathComponent): \(error.localizedDescription)")
        }
    }
}

/// One run of the extractor: owns the libarchive handle, the bookkeeping for limits and the
/// list of paths it created (so a refused archive can be undone).
private struct ExtractionSession {
    let root: URL
    let limits: ExtractionLimits
    let archiveSize: Int64
    var createdPaths: [String] = []
    var entryCount = 0
    var totalBytes: Int64 = 0

    init(root: URL, limits: ExtractionLimits, archiveSize: Int64) {
        self.root = root
        self.limits = limits
        self.archiveSize = archiveSize
    }

    // File type bits from archive_entry.h (the AE_IF* macros do not import into Swift).
    private static let typeMask: UInt32 = 0o170000
    private static let regularFile: UInt32 = 0o100000
    private static let directory: UInt32 = 0o040000
    private static let symbolicLink: UInt32 = 0o120000

    mutating func run(archivePath: String) throws {
        // libarchive converts entry names through the current locale's character set. A Swift
        // program runs in the "C" locale, where non-ASCII names cannot be converted and come back
        // as nil, so switch this thread (only) to a UTF-8 locale while reading.
        let utf8Locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) ?? newlocale(LC_CTYPE_MASK, "en_US.UTF-8", nil)
        let previousLocale = utf8Locale.map { uselocale($0) }
        defer {
            if let previousLocale { uselocale(previousLocale) }
            if let utf8Locale { freelocale(utf8Locale) }
        }
        if let failure = newsstand_archive_failure() { throw ArchiveExtractionError.libraryUnavailable(failure) }
        guard let reader = newsstand_archive_read_new() else {
            throw ArchiveExtractionError("could not start the archive reader")
        }
        defer { newsstand_archive_read_free(reader) }
        newsstand_archive_read_support_format_all(reader)
        newsstand_archive_read_support_filter_all(reader)

        if newsstand_archive_read_open_filename(reader, archivePath, 64 * 1024) != ARCHIVE_OK {
            let detail = Self.message(reader)
            if detail.lowercased().contains("unrecognized archive format") || detail.isEmpty {
                throw ArchiveExtractionError("not a zip archive (libarchive does not recognise the format)")
            }
            throw ArchiveExtractionError("could not open archive: \(detail)")
        }

        var entry: OpaquePointer?
        while true {
            let status = newsstand_archive_read_next_header(reader, &entry)
            if status == ARCHIVE_EOF { break }
            if status == ARCHIVE_RETRY { continue }
            if status < ARCHIVE_WARN || entry == nil {
                let detail = Self.message(reader)
                if entryCount == 0, detail.lowercased().contains("unrecognized archive format") {
                    throw ArchiveExtractionError("not a zip archive (libarchive does not recognise the format)")
                }
                throw ArchiveExtractionError("damaged archive: \(detail.isEmpty ? "could not read the next entry" : detail)")
            }
            entryCount += 1
            if entryCount > limits.maxEntries {
                throw ArchiveExtractionError("archive has more than \(limits.maxEntries) entries")
            }
            try extractEntry(entry!, reader: reader)
        }
    }

    private mutating func extractEntry(_ entry: OpaquePointer, reader: OpaquePointer) throws {
        let rawName: String
        if let utf8 = newsstand_archive_entry_pathname_utf8(entry) {
            rawName = String(cString: utf8)
        } else if let native = newsstand_archive_entry_pathname(entry) {
            rawName = String(cString: native)
        } else {
            throw ArchiveExtractionError("an entry's name could not be read as text")
        }
        let components = try Self.safeComponents(of: rawName)

        if newsstand_archive_entry_hardlink(entry) != nil {
            throw ArchiveExtractionError("entry '\(rawName)' is a hard link; issue archives may not contain links")
        }
        let fileType = UInt32(newsstand_archive_entry_filetype(entry)) & Self.typeMask
        if fileType == Self.symbolicLink || newsstand_archive_entry_symlink(entry) != nil {
            throw ArchiveExtractionError("entry '\(rawName)' is a symbolic link; issue archives may not contain links")
        }
        if newsstand_archive_entry_is_encrypted(entry) != 0 {
            throw ArchiveExtractionError("entry '\(rawName)' is encrypted")
        }

        switch fileType {
        case Self.directory:
            if components.isEmpty { return }
            try makeDirectories(components, entryName: rawName)
        case Self.regularFile, 0:
            if components.isEmpty {
                throw ArchiveExtractionError("entry '\(rawName)' has no file name")
            }
            if newsstand_archive_entry_size_is_set(entry) != 0 {
                let claimed = newsstand_archive_entry_size(entry)
                if claimed > limits.maxTotalBytes - totalBytes {
                    throw Self.totalLimitError(limits.maxTotalBytes)
                }
            }
            try makeDirectories(Array(components.dropLast()), entryName: rawName)
            try writeFile(components, entryName: rawName, reader: reader)
        default:
            throw ArchiveExtractionError("entry '\(rawName)' is a device, fifo or socket, not a file")
        }
    }

    /// Splits an entry name into path components, refusing anything that could leave the root.
    static func safeComponents(of name: String) throws -> [String] {
        if name.isEmpty {
            throw ArchiveExtractionError("an entry has an empty name")
        }
        if name.hasPrefix("/") || name.hasPrefix("\\") {
            throw ArchiveExtractionError("entry '\(name)' has an absolute path and would escape the issue folder")
        }
        let scalars = Array(name.unicodeScalars)
        if scalars.count >= 2, scalars[1] == ":", scalars[0].isASCII, scalars[0].properties.isAlphabetic {
            throw ArchiveExtractionError("entry '\(name)' has a drive-letter path and would escape the issue folder")
        }
        var components: [String] = []
        for part in name.split(whereSeparator: { $0 == "/" || $0 == "\\" }) {
            if part == "." || part.isEmpty { continue }
            if part == ".." {
                throw ArchiveExtractionError("entry '\(name)' would escape the issue folder")
            }
            components.append(String(part))
        }
        return components
    }

    private func path(for components: [String]) -> String {
        components.reduce(root.path) { $0 + "/" + $1 }
    }

    private mutating func makeDirectories(_ components: [String], entryName: String) throws {
        var current = root.path
        for component in components {
            current += "/" + component
            var info = stat()
            if lstat(current, &info) == 0 {
                let kind = UInt32(info.st_mode) & Self.typeMask
                if kind == Self.directory { continue }
                if kind == Self.symbolicLink {
                    throw ArchiveExtractionError("entry '\(entryName)' would pass through a symbolic link and escape the issue folder")
                }
                throw ArchiveExtractionError("entry '\(entryName)' needs folder '\(component)' but a file of that name exists")
            }
            if mkdir(current, 0o755) != 0 {
                throw ArchiveExtractionError("could not create folder for entry '\(entryName)': \(String(cString: strerror(errno)))")
            }
            createdPaths.append(current)
        }
    }

    private mutating func writeFile(_ components: [String], entryName: String, reader: OpaquePointer) throws {
        let target = path(for: components)
        var info = stat()
        let existed = lstat(target, &info) == 0
        if existed {
            let kind = UInt32(info.st_mode) & Self.typeMask
            if kind != Self.regularFile {
                throw ArchiveExtractionError("entry '\(entryName)' would overwrite something that is not a plain file")
            }
        }
        let descriptor = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if descriptor < 0 {
            throw ArchiveExtractionError("could not write entry '\(entryName)': \(String(cString: strerror(errno)))")
        }
        if !existed { createdPaths.append(target) }
        defer { close(descriptor) }

        let startPosition = newsstand_archive_filter_bytes(reader, -1)
        var entryExtent: Int64 = 0
        var block: UnsafeRawPointer?
        var size = 0
        var offset: la_int64_t = 0
        while true {
            let status = newsstand_archive_read_data_block(reader, &block, &size, &offset)
            if status == ARCHIVE_EOF { break }
            if status == ARCHIVE_RETRY { continue }
            if status < ARCHIVE_WARN {
                let detail = Self.message(reader)
                throw ArchiveExtractionError("damaged entry '\(entryName)': \(detail.isEmpty ? "could not read its data" : detail)")
            }
            guard size > 0, let block else { continue }
            let end = Int64(offset) + Int64(size)
            if end > entryExtent {
                totalBytes += end - entryExtent
                entryExtent = end
            }
            if totalBytes > limits.maxTotalBytes {
                throw Self.totalLimitError(limits.maxTotalBytes)
            }
            try checkRatios(entryBytes: entryExtent, compressedBytes: newsstand_archive_filter_bytes(reader, -1) - startPosition, entryName: entryName)
            var written = 0
            while written < size {
                let result = pwrite(descriptor, block + written, size - written, off_t(offset) + off_t(written))
                if result < 0 {
                    if errno == EINTR { continue }
                    throw ArchiveExtractionError("could not write entry '\(entryName)': \(String(cString: strerror(errno)))")
                }
                written += result
            }
        }
        if ftruncate(descriptor, off_t(entryExtent)) != 0 {
            throw ArchiveExtractionError("could not write entry '\(entryName)': \(String(cString: strerror(errno)))")
        }
    }

    private func checkRatios(entryBytes: Int64, compressedBytes: Int64, entryName: String) throws {
        let threshold = limits.ratioCheckThreshold
        if entryBytes > threshold {
            let ratio = Double(entryBytes) / Double(max(compressedBytes, 1))
            if ratio > limits.maxCompressionRatio {
                throw ArchiveExtractionError("entry '\(entryName)' expands more than \(Int(limits.maxCompressionRatio)) times its compressed size (looks like a zip bomb)")
            }
        }
        if totalBytes > threshold, archiveSize > 0 {
            let ratio = Double(totalBytes) / Double(archiveSize)
            if ratio > limits.maxCompressionRatio {
                throw ArchiveExtractionError("archive expands more than \(Int(limits.maxCompressionRatio)) times its size (looks like a zip bomb)")
            }
        }
    }

    /// Undoes this run when the destination folder existed beforehand.
    func removeCreatedItems() {
        for path in createdPaths.reversed() {
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            if UInt32(info.st_mode) & Self.typeMask == Self.directory {
                try? FileManager.default.removeItem(atPath: path)
            } else {
                unlink(path)
            }
        }
    }

    static func totalLimitError(_ limit: Int64) -> ArchiveExtractionError {
        ArchiveExtractionError("archive exceeds \(ByteCountText.describe(limit)) uncompressed")
    }

    static func message(_ reader: OpaquePointer) -> String {
        guard let text = newsstand_archive_error_string(reader) else { return "" }
        return String(cString: text)
    }
}

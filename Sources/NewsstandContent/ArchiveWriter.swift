import CArchive
import Foundation

/// Writes zip, 7z and tar archives with libarchive.
///
/// Used to make test and benchmark issues (comic books, hostile archives); the app itself never
/// writes archives. Entry names are written exactly as given, `..` and absolute paths included.
public enum ArchiveWriter {
    /// The container written.
    public enum Format: Sendable {
        /// Zip, entries deflated (or only stored, for pictures that are compressed already).
        case zip(stored: Bool)
        /// 7-Zip (a CB7).
        case sevenZip
        /// POSIX ustar (a CBT).
        case tar
    }

    /// One entry of an archive.
    public enum Entry: Sendable {
        case file(String, Data)
        case folder(String)
        case symbolicLink(String, target: String)
    }

    // File type bits from archive_entry.h (the AE_IF* macros do not import into Swift).
    private static let regularFile: UInt32 = 0o100000
    private static let directory: UInt32 = 0o040000
    private static let symbolicLink: UInt32 = 0o120000

    /// Writes `entries` in order to a new archive at `file` (replacing it).
    public static func write(_ entries: [Entry], to file: URL, format: Format = .zip(stored: false)) throws {
        if let failure = newsstand_archive_failure() { throw ArchiveExtractionError.libraryUnavailable(failure) }
        guard let archive = newsstand_archive_write_new() else { throw ArchiveExtractionError("could not start the archive writer") }
        defer { newsstand_archive_write_free(archive) }
        let status: Int32
        switch format {
        case .zip(let stored):
            status = newsstand_archive_write_set_format_zip(archive)
            if status == ARCHIVE_OK, stored { try check(newsstand_archive_write_set_options(archive, "zip:compression=store"), archive) }
        case .sevenZip:
            status = newsstand_archive_write_set_format_7zip(archive)
        case .tar:
            status = newsstand_archive_write_set_format_ustar(archive)
        }
        try check(status, archive)
        try? FileManager.default.removeItem(at: file)
        try check(newsstand_archive_write_open_filename(archive, file.path), archive)
        for entry in entries {
            guard let header = newsstand_archive_entry_new() else { throw ArchiveExtractionError("could not make an archive entry") }
            defer { newsstand_archive_entry_free(header) }
            switch entry {
            case .file(let name, let data):
                newsstand_archive_entry_set_pathname_utf8(header, name)
                newsstand_archive_entry_set_filetype(header, regularFile)
                newsstand_archive_entry_set_perm(header, 0o644)
                newsstand_archive_entry_set_size(header, la_int64_t(data.count))
                try check(newsstand_archive_write_header(archive, header), archive)
                let written = data.withUnsafeBytes { newsstand_archive_write_data(archive, $0.baseAddress, data.count) }
                if written < 0 || (written != data.count && !data.isEmpty) { try check(ARCHIVE_FATAL, archive) }
            case .folder(let name):
                newsstand_archive_entry_set_pathname_utf8(header, name)
                newsstand_archive_entry_set_filetype(header, directory)
                newsstand_archive_entry_set_perm(header, 0o755)
                try check(newsstand_archive_write_header(archive, header), archive)
            case .symbolicLink(let name, let target):
                newsstand_archive_entry_set_pathname_utf8(header, name)
                newsstand_archive_entry_set_filetype(header, symbolicLink)
                newsstand_archive_entry_set_perm(header, 0o777)
                newsstand_archive_entry_set_symlink_utf8(header, target)
                try check(newsstand_archive_write_header(archive, header), archive)
            }
        }
        try check(newsstand_archive_write_close(archive), archive)
    }

    private static func check(_ status: Int32, _ archive: OpaquePointer) throws {
        guard status < ARCHIVE_WARN else { return }
        let detail = newsstand_archive_error_string(archive).map { String(cString: $0) } ?? "error \(status)"
        throw ArchiveExtractionError("could not write the archive: \(detail)")
    }
}

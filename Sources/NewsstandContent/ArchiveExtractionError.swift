import CArchive

/// Why an archive was refused or could not be unpacked, in plain words.
public struct ArchiveExtractionError: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }

    /// libarchive, opened at the first archive rather than linked, could not be loaded; `detail` is the loader's words.
    static func libraryUnavailable(_ detail: UnsafePointer<CChar>) -> ArchiveExtractionError {
        ArchiveExtractionError("archives need \(NEWSSTAND_ARCHIVE_SONAME) (Debian's libarchive13 package), which could not be loaded: "
                               + String(cString: detail))
    }
}

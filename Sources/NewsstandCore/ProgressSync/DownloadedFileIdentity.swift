/// What progress sync needs to know of an issue's file as it was downloaded, kept in the library because the
/// file itself is not (an archive is unpacked and removed): KOReader's partial MD5 of it, and its name.
public struct DownloadedFileIdentity: Sendable, Equatable {
    /// `KOReaderDocumentID.partialMD5(ofFile:)` of the file as downloaded.
    public var partialMD5: String
    /// The file's name as the server gave it (the last part of its URL), for the "filename" method.
    public var fileName: String

    public init(partialMD5: String, fileName: String) {
        self.partialMD5 = partialMD5
        self.fileName = fileName
    }
}

import Foundation
import NewsstandContent

/// Opens installed issues for reading.
public enum IssueContent {
    /// The EPUB in an installed issue folder, with its articles in reading order.
    public static func openBook(folder: URL) throws -> EPUBBook {
        guard FileManager.default.fileExists(atPath: folder.path) else {
            throw DownloadError("the issue's files are missing; download it again")
        }
        return try EPUBReader.open(folder: folder)
    }
}

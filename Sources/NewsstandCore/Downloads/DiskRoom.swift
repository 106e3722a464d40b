import Foundation

/// The checks that keep a download from filling the disk: before a body, that what is still to come fits
/// and leaves the reserve (`disk-reserve`) free; before each block is written, that the reserve stays free.
/// Either failure keeps the partial file, so the download continues once space is freed.
struct DiskRoom: Sendable {
    /// Free bytes on the file system of a folder (statvfs; tests inject small figures).
    let freeSpace: @Sendable (URL) -> Int64?
    /// Bytes writing leaves free.
    let reserve: Int64
    /// The folder the partial file is in.
    let folder: URL

    /// Before a body of `needed` bytes (0 when unknown) is written.
    func checkBeforeBody(needed: Int64) throws {
        guard let free = freeSpace(folder) else { return }
        let needed = max(0, needed)
        if needed > 0, free < needed {
            throw TransferFailure.stopped("not enough free space: need \(FreeSpace.megabytes(needed)) MB, have \(FreeSpace.megabytes(free)) MB")
        }
        if free - needed < reserve {
            throw TransferFailure.stopped("not enough free space: need \(FreeSpace.megabytes(needed)) MB and downloads keep "
                + "\(HTTPError.size(reserve)) free (disk-reserve), have \(FreeSpace.megabytes(free)) MB; "
                + "free some space or lower disk-reserve in the config file")
        }
    }

    /// Before a block of `count` bytes is written.
    func checkBeforeWriting(_ count: Int) throws {
        if let free = freeSpace(folder), free - Int64(count) < reserve {
            throw TransferFailure.stopped("stopped with \(FreeSpace.megabytes(free)) MB free on the disk: downloads keep "
                + "\(HTTPError.size(reserve)) free (disk-reserve); free some space or lower disk-reserve "
                + "in the config file, then download again to continue")
        }
    }
}

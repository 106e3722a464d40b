import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens a comic book unpacked into a folder (a CBZ, CB7 or CBT issue).
///
/// Every picture file at any depth is a page, in the natural order of its path: "page2" before
/// "page10", ignoring case, nested folders flattened in path order. Other files are ignored, and so
/// are hidden files, macOS `__MACOSX` folders, links and anything not a plain file. A
/// `ComicInfo.xml` (the shallowest one) names the book and its pages, and pages it marks `Deleted`
/// are left out.
public enum ComicBookReader {
    /// File name extensions taken as page pictures (compared ignoring case). Only PNG and JPEG can be
    /// drawn; the others are pages that say so.
    public static let pageExtensions: Set<String> = ["jpg", "jpeg", "jpe", "png", "gif", "webp", "bmp", "avif", "jxl", "tif", "tiff"]
    /// The most files looked at in a folder tree (the installer unpacks at most 10,000 entries).
    public static let maximumFiles = 100_000
    /// The deepest folder looked into.
    static let maximumDepth = 64

    /// Whether `name` (a file name or path) has a page picture's extension.
    public static func isPagePicture(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return pageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// The book in `folder`; throws `ComicBookError` when it holds no page picture.
    public static func open(folder: URL) throws -> ComicBook {
        var listing = Listing()
        walk(folder.path, relative: "", depth: 0, into: &listing)
        guard !listing.pictures.isEmpty else {
            throw ComicBookError("the comic book has no page pictures (PNG or JPEG files)")
        }
        let pictures = NaturalOrder.sortedPaths(listing.pictures)
        let info = listing.comicInfo.flatMap { ComicInfo.read(folder.appendingPathComponent($0)) }

        var labels: [Int: String] = [:]
        var deleted: Set<Int> = []
        for page in info?.pages ?? [] {
            if page.isDeleted {
                deleted.insert(page.image)
            } else if labels[page.image] == nil, let label = page.label {
                labels[page.image] = label
            }
        }
        // A ComicInfo.xml that deletes every page is wrong rather than meant: keep them all.
        if pictures.indices.allSatisfy(deleted.contains) { deleted = [] }

        var pages: [ComicPage] = []
        for (index, path) in pictures.enumerated() where !deleted.contains(index) {
            pages.append(ComicPage(number: pages.count + 1, file: folder.appendingPathComponent(path),
                                   path: TextSanitizer.singleLine(path), label: labels[index]))
        }
        return ComicBook(title: info?.displayTitle ?? topFolderName(of: pictures) ?? "Untitled", pages: pages, info: info)
    }

    /// What a walk of the folder found: picture paths and the shallowest `ComicInfo.xml`, relative to the folder.
    private struct Listing {
        var pictures: [String] = []
        var comicInfo: String?
        var comicInfoDepth = Int.max
        var files = 0
    }

    private static func walk(_ path: String, relative: String, depth: Int, into listing: inout Listing) {
        guard depth <= maximumDepth, let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names where listing.files < maximumFiles {
            if name.hasPrefix(".") || name == "__MACOSX" { continue }
            listing.files += 1
            let full = path + "/" + name
            let inside = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard lstat(full, &info) == 0 else { continue }
            switch UInt32(info.st_mode) & UInt32(S_IFMT) {
            case UInt32(S_IFDIR):
                walk(full, relative: inside, depth: depth + 1, into: &listing)
            case UInt32(S_IFREG):
                if isPagePicture(name) {
                    listing.pictures.append(inside)
                } else if name.lowercased() == "comicinfo.xml", depth < listing.comicInfoDepth {
                    listing.comicInfo = inside
                    listing.comicInfoDepth = depth
                }
            default:
                continue  // links, devices: never pages
            }
        }
    }

    /// The one folder every page is in at the top of the archive ("My Comic 001/…"), if there is one.
    private static func topFolderName(of paths: [String]) -> String? {
        let tops = Set(paths.map { path -> String? in
            let parts = path.split(separator: "/", maxSplits: 1)
            return parts.count == 2 ? String(parts[0]) : nil
        })
        guard tops.count == 1, let top = tops.first, let name = top else { return nil }
        let clean = TextSanitizer.singleLine(name).trimmingCharacters(in: .whitespaces)
        return clean.isEmpty ? nil : clean
    }
}

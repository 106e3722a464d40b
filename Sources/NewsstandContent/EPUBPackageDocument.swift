import Foundation

/// The parts of an OPF package document the reader needs: metadata, manifest and spine.
struct EPUBPackageDocument {
    struct ManifestItem {
        var id: String
        var location: EPUBPathResolver.Location?
        var mediaType: String
        var properties: [String]
    }

    struct SpineItem {
        var idref: String
        var linear: Bool
    }

    var version: String
    var title: String?
    var creator: String?
    var language: String?
    var manifest: [String: ManifestItem]
    var manifestOrder: [String]
    var spine: [SpineItem]
    var spineTableOfContentsID: String?
    var coverMetaID: String?

    /// Reads the package document at `components` (folder-relative).
    static func load(_ components: [String], resolver: EPUBPathResolver) throws -> EPUBPackageDocument {
        let path = resolver.displayPath(components)
        let tree: MarkupElement
        switch XMLTreeParser.parse(contentsOf: resolver.url(for: components)) {
        case .success(let parsed): tree = parsed
        case .failure(let failure):
            throw EPUBError("package document \(path) is not well-formed XML (line \(failure.line): \(failure.reason))")
        }
        guard let package = tree.firstChild(named: "package") else {
            throw EPUBError("package document \(path) has no <package> element")
        }

        let metadata = package.firstChild(named: "metadata") ?? MarkupElement(name: "metadata")
        let metas = metadata.descendants { $0.name == "meta" }
        let titles = metadata.descendants { $0.name == "title" }
        let mainTitleIDs = Set(metas.compactMap { meta -> String? in
            guard meta.attribute("property") == "title-type", meta.collapsedText == "main",
                  let refines = meta.attribute("refines"), refines.hasPrefix("#") else { return nil }
            return String(refines.dropFirst())
        })
        let mainTitle = titles.first { $0.attribute("id").map(mainTitleIDs.contains) ?? false } ?? titles.first { !$0.collapsedText.isEmpty }

        var manifest: [String: ManifestItem] = [:]
        var manifestOrder: [String] = []
        for item in package.firstChild(named: "manifest")?.children(named: "item") ?? [] {
            guard let id = item.attribute("id").map(Self.trimmed), manifest[id] == nil else { continue }
            manifest[id] = ManifestItem(
                id: id,
                location: item.attribute("href").flatMap { resolver.resolve($0, relativeTo: components) },
                mediaType: item.attribute("media-type") ?? "",
                properties: item.attributeTokens("properties")
            )
            manifestOrder.append(id)
        }

        guard let spineElement = package.firstChild(named: "spine") else {
            throw EPUBError("package document \(path) has no spine")
        }
        let spine = spineElement.children(named: "itemref").compactMap { itemref -> SpineItem? in
            guard let idref = itemref.attribute("idref").map(Self.trimmed) else { return nil }
            return SpineItem(idref: idref, linear: itemref.attribute("linear")?.lowercased() != "no")
        }

        return EPUBPackageDocument(
            version: package.attribute("version")?.trimmingCharacters(in: .whitespaces) ?? "",
            title: mainTitle?.collapsedText,
            creator: metadata.descendants { $0.name == "creator" }.map(\.collapsedText).first { !$0.isEmpty },
            language: metadata.descendants { $0.name == "language" }.map(\.collapsedText).first { !$0.isEmpty },
            manifest: manifest,
            manifestOrder: manifestOrder,
            spine: spine,
            spineTableOfContentsID: spineElement.attribute("toc").map(Self.trimmed),
            coverMetaID: metas.first { $0.attribute("name") == "cover" }?.attribute("content").map(Self.trimmed)
        )
    }

    /// IDs compared as written apart from surrounding whitespace (epubcheck treats " id " as "id").
    private static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Manifest items in manifest order.
    var items: [ManifestItem] {
        manifestOrder.compactMap { manifest[$0] }
    }
}

import Foundation

/// Pictures that a page loads with a script: their real source found in `data-src`, `srcset`,
/// `data-srcset` or any attribute holding a picture's file name, and the `<noscript>` copies that
/// pages put after a placeholder.
enum LazyImages {
    private static let pictureSuffixes = [".jpg", ".jpeg", ".png", ".webp", ".gif", ".avif"]

    /// The suffixes as a pattern matched in a value's bytes (ASCII letters without case, as in the lowercased value).
    private static let pictureSuffixPattern = ArticleNamePattern(fragments: pictureSuffixes)
    private static let lazyPattern = ArticleNamePattern(fragments: ["lazy"])

    static func looksLikePicture(_ value: String) -> Bool {
        pictureSuffixPattern.matches(value)
    }

    /// Placeholders (no source anywhere) out; a `<noscript>` holding one picture replaces the
    /// picture just before it.
    static func unwrapNoscriptImages(_ root: PageNode) {
        for image in root.elements(named: "img") {
            let hasSource = image["src"] != nil || image["srcset"] != nil || image["data-src"] != nil || image["data-srcset"] != nil
                || image.attributes.values.contains(where: looksLikePicture)
            if !hasSource { image.detach() }
        }
        for noscript in root.elements(named: "noscript") {
            guard let newImage = singleImage(noscript) else { continue }
            guard let previous = noscript.previousElementSibling, let oldImage = singleImage(previous) else { continue }
            for (name, value) in oldImage.attributes where !value.isEmpty {
                guard name == "src" || name == "srcset" || looksLikePicture(value) else { continue }
                if newImage[name] == value { continue }
                newImage[newImage[name] == nil ? name : "data-old-" + name] = value
            }
            previous.replace(with: newImage)
        }
    }

    /// The picture when `node` is one or holds exactly one and no text.
    private static func singleImage(_ node: PageNode) -> PageNode? {
        var current = node
        while true {
            if current.name == "img" { return current }
            let children = current.elementChildren
            guard children.count == 1, !current.hasVisibleText else { return nil }
            current = children[0]
        }
    }

    /// Gives pictures whose source is a placeholder the real one from their other attributes.
    static func fix(_ root: PageNode) {
        for element in root.elements(named: ["img", "picture", "figure"]) {
            if let source = element["src"], source.lowercased().hasPrefix("data:") {
                let isSVG = source.lowercased().hasPrefix("data:image/svg+xml")
                let elsewhere = element.attributes.contains { $0.key != "src" && looksLikePicture($0.value) }
                if !isSVG, elsewhere, source.utf16.count < 133 + 30 { element["src"] = nil }
            }
            let hasSource = element["src"].map { !$0.isEmpty } ?? false
            let hasSourceSet = element["srcset"].map { !$0.isEmpty && $0 != "null" } ?? false
            if (hasSource || hasSourceSet), !lazyPattern.matches(element.className) { continue }
            for (name, value) in element.attributes where !["src", "srcset", "alt"].contains(name) {
                var copyTo: String?
                if isSourceSet(value) {
                    copyTo = "srcset"
                } else if isSingleURL(value) {
                    copyTo = "src"
                }
                guard let copyTo else { continue }
                if element.name == "img" || element.name == "picture" {
                    element[copyTo] = value
                } else if element.name == "figure", !element.contains(named: ["img", "picture"]) {
                    let image = PageNode(name: "img", attributes: [copyTo: value])
                    element.append(image)
                }
            }
        }
        // A picture known only by its srcset shows its first candidate.
        for image in root.elements(named: "img") where (image["src"] ?? "").isEmpty || image["src"]!.lowercased().hasPrefix("data:") {
            if let set = image["srcset"] ?? image["data-srcset"], let first = firstCandidate(set) { image["src"] = first }
        }
    }

    private static func isSourceSet(_ value: String) -> Bool {
        // "a.jpg 2x", "b.png 300w": a picture name followed by a descriptor.
        let lowered = value.lowercased()
        for suffix in pictureSuffixes {
            var search = lowered[...]
            while let range = search.range(of: suffix) {
                let after = search[range.upperBound...].drop { $0 == " " }
                if after.count < search[range.upperBound...].count, let next = after.first, next.isNumber { return true }
                search = search[range.upperBound...]
            }
        }
        return false
    }

    private static func isSingleURL(_ value: String) -> Bool {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        return !trimmed.isEmpty && !trimmed.contains(" ") && looksLikePicture(trimmed)
    }

    private static func firstCandidate(_ set: String) -> String? {
        let first = set.split(separator: ",").first?.trimmingCharacters(in: .whitespaces) ?? ""
        let url = first.split(separator: " ").first.map(String.init) ?? ""
        return url.isEmpty ? nil : url
    }
}

import Foundation
import NewsstandTestSupport
import XCTest

/// Highlights and notes that move between readers: a KOReader sidecar written by hand imports; what one library
/// exports (Web Annotation, KOReader's JSON) imports into an empty library holding the same issue as the same
/// highlights at the same passages.
final class NotesExchangeEndToEndTests: EndToEndTestCase {
    private func library() throws -> [String: String] {
        let home = try TestEnvironment.temporaryHome()
        addTeardownBlock { try? FileManager.default.removeItem(at: home) }
        let environment = TestEnvironment.environment(home: home, sample: true)
        XCTAssertEqual(try TestEnvironment.run(["download", "2026-autumn"], environment: environment).status, 0)
        return environment
    }

    /// KOReader's sidecar shape (`book.sdr/metadata.epub.lua`), written by hand: one highlight with a note placed by
    /// XPointer into the second chapter, one found by its text alone (its chapter named), a comment and escapes.
    private let sidecar = #"""
        -- we can read settings from here
        return {
            ["annotations"] = {
                [1] = {
                    ["chapter"] = "Reading the Years in a Street Tree",
                    ["datetime"] = "2026-03-02 17:45:10",
                    ["drawer"] = "lighten",
                    ["note"] = "Count them from the \"pith\"!\nTwo lines.",
                    ["page"] = "/body/DocFragment[2]/body/p[4]/text().0",
                    ["pos0"] = "/body/DocFragment[2]/body/p[4]/text().0",
                    ["pos1"] = "/body/DocFragment[2]/body/p[4]/text().52",
                    ["text"] = "In climates with distinct seasons, a tree adds a layer",
                },
                [2] = {
                    ["chapter"] = "The Typewriter Mender",
                    ["datetime"] = "2026-03-03 09:00:00",
                    ["drawer"] = "underscore",
                    ["pos0"] = "/body/DocFragment[9]/body/div[7]/text().0",
                    ["pos1"] = "/body/DocFragment[9]/body/div[7]/text().10",
                    ["text"] = [[I was an apprentice watchmaker]],
                },
            },
            ["partial_md5_checksum"] = "0123456789abcdef0123456789abcdef",
            ["percent_finished"] = 0.25,
            ["stats"] = { ["pages"] = 120, ["highlights"] = 2, },
        }
        """#

    private func notesJSON(_ environment: [String: String]) throws -> [[String: Any]] {
        let result = try TestEnvironment.run(["notes", "2026-autumn", "--format", "json"], environment: environment)
        XCTAssertEqual(result.status, 0, result.errors)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let issues = try XCTUnwrap(object["issues"] as? [[String: Any]])
        return try XCTUnwrap(issues.first?["highlights"] as? [[String: Any]])
    }

    /// The passages as (article, start, end, text, note): what "the same highlights at the same passages" means.
    private func passages(_ notes: [[String: Any]]) -> [String] {
        notes.map { note in
            let start = note["start"] as? [String: Any] ?? [:], end = note["end"] as? [String: Any] ?? [:]
            return "\(note["article"] ?? "") \(start["block"] ?? ""),\(start["offset"] ?? "")–\(end["block"] ?? ""),\(end["offset"] ?? "") \(note["text"] ?? "") | \(note["note"] ?? "") | \(note["found"] ?? "")"
        }
    }

    func testASidecarImportsAndExportsRoundTrip() throws {
        let a = try library()
        let file = try XCTUnwrap(a["HOME"]) + "/metadata.epub.lua"
        try Data(sidecar.utf8).write(to: URL(fileURLWithPath: file))
        let imported = try TestEnvironment.run(["notes", "--import", file, "2026-autumn"], environment: a)
        XCTAssertEqual(imported.status, 0, imported.errors)
        XCTAssertEqual(imported.output, "Imported 2 highlights (1 with notes) and 0 bookmarks into kettle-compass/2026-autumn.\n")
        let notes = try notesJSON(a)
        XCTAssertEqual(notes.count, 2)
        XCTAssertEqual(notes[0]["article"] as? Int, 2)
        XCTAssertEqual(notes[0]["text"] as? String, "In climates with distinct seasons, a tree adds a layer")
        XCTAssertEqual(notes[0]["note"] as? String, "Count them from the \"pith\"! Two lines.")
        XCTAssertEqual(notes[0]["found"] as? Bool, true)
        XCTAssertEqual(notes[1]["article"] as? Int, 3, "found by its text though its XPointer names no such place")
        XCTAssertEqual(notes[1]["found"] as? Bool, true)
        let again = try TestEnvironment.run(["notes", "--import", file, "2026-autumn"], environment: a)
        XCTAssertTrue(again.output.contains("Imported 0 highlights") && again.output.contains("2 were there already"), again.output)

        for format in ["webannotation", "koreader"] {
            let exported = try TestEnvironment.run(["notes", "2026-autumn", "--format", format], environment: a)
            XCTAssertEqual(exported.status, 0, exported.errors)
            if format == "webannotation" {
                XCTAssertTrue(exported.output.contains("\"TextQuoteSelector\"") && exported.output.contains("\"AnnotationCollection\"")
                              && exported.output.contains("http://www.w3.org/ns/anno.jsonld"), exported.output)
            } else {
                XCTAssertTrue(exported.output.contains("\"entries\"") && exported.output.contains("\"sort\" : \"highlight\""), exported.output)
            }
            let b = try library()
            let path = try XCTUnwrap(b["HOME"]) + "/notes.\(format).json"
            try Data(exported.output.utf8).write(to: URL(fileURLWithPath: path))
            let result = try TestEnvironment.run(["notes", "--import", path, "2026-autumn"], environment: b)
            XCTAssertEqual(result.status, 0, result.errors)
            XCTAssertEqual(passages(try notesJSON(b)), passages(notes), "\(format): the same highlights at the same passages")
        }
    }

    func testBadFilesAreRefusedPlainlyAndChangeNothing() throws {
        let a = try library()
        let home = try XCTUnwrap(a["HOME"])
        for (name, content, words) in [("evil.lua", "return { annotations = { os.execute('touch \(home)/pwned') } }", "is not a value"),
                                       ("deep.lua", "return " + String(repeating: "{", count: 200) + String(repeating: "}", count: 200), "nested more than"),
                                       ("other.json", "{\"hello\": 1}", "neither Web Annotation nor KOReader")] {
            let file = home + "/" + name
            try Data(content.utf8).write(to: URL(fileURLWithPath: file))
            let result = try TestEnvironment.run(["notes", "--import", file, "2026-autumn"], environment: a)
            XCTAssertEqual(result.status, 1, name)
            XCTAssertTrue(result.errors.contains(words) && result.errors.contains("nothing was imported"), "\(name): \(result.errors)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/pwned"))
        XCTAssertEqual(try notesJSON(a).count, 0)
    }
}

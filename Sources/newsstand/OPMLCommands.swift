import Foundation
import NewsstandCore

/// `newsstand import FILE` and `newsstand export`: subscriptions in and out as OPML (newsboat reads and writes the same).
enum OPMLCommands {
    static func importFile(_ arguments: inout ArgumentList) throws {
        let path = try arguments.positional("OPML file")
        try arguments.finish()
        guard let data = FileManager.default.contents(atPath: path) else { throw CommandFailure("cannot read \(path)") }
        let document: OPMLDocument
        do {
            document = try OPMLDocument.parse(data)
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
        let context = try LibraryContext.open()
        let result = try OPMLImport.run(document, store: context.store, credentials: CredentialStore(paths: context.paths), client: context.client)
        print(result.summary)
        if !result.failures.isEmpty {
            throw CommandFailure("\(result.failures.count) could not be added:\n  " + result.failures.joined(separator: "\n  "))
        }
    }

    static func export(_ arguments: inout ArgumentList) throws {
        try arguments.finish()
        let context = try LibraryContext.open()
        FileHandle.standardOutput.write(Data(try OPMLImport.export(store: context.store).xml().utf8))
    }
}

import Foundation

extension LibraryStore {
    /// Brings the library database and the files on disk back into agreement, for use at start-up
    /// (``DownloadQueue/resumeInterrupted()`` and `newsstand download` call it).
    ///
    /// - An issue marked available whose folder is missing goes back to not downloaded.
    /// - Partial downloads of issues that are no longer downloading, paused or failed are removed.
    /// - Staging and previous-version folders that an interrupted install left beside the issue folders
    ///   (older than `leftoverAge`, so another process's install in progress is left alone) are removed;
    ///   a previous version whose replacement never arrived is put back.
    ///
    /// Returns the issues that went back to not downloaded.
    @discardableResult
    public func reconcile(paths: LibraryPaths, leftoverAge: TimeInterval = 60, now: Date = Date()) throws -> [Int64] {
        Self.cleanInstallLeftovers(in: paths.issuesDirectory, olderThan: leftoverAge, now: now)
        // Only the publications that have downloaded issues are read (the library may hold thousands).
        var publications: [Int64: Publication?] = [:]
        var reset: [Int64] = []
        for issue in try downloadedIssues() {
            if publications[issue.publicationID] == nil { publications[issue.publicationID] = try publication(id: issue.publicationID) }
            guard let publication = publications[issue.publicationID] ?? nil else { continue }
            var isDirectory: ObjCBool = false
            let folder = paths.folder(for: issue, of: publication)
            if !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) || !isDirectory.boolValue {
                try setState(.notDownloaded, issueID: issue.id)
                reset.append(issue.id)
            }
        }
        try removeOrphanPartials(in: paths.partialDownloadsDirectory)
        return reset
    }

    /// Partial files (and their sidecars) whose issue is gone or no longer wants them.
    private func removeOrphanPartials(in directory: URL) throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        guard !names.isEmpty else { return }
        let keep: Set<String> = [IssueState.downloading.storedName, IssueState.paused.storedName, "failed"]
        var states: [Int64: String] = [:]
        for name in names {
            let file = directory.appendingPathComponent(name)
            if name.hasSuffix(".lock") {
                // Only a lock nobody holds goes (a process that died left it); a held one is in use.
                IssueLock.removeIfStale(file)
                continue
            }
            guard let dash = name.firstIndex(of: "-"), let issueID = Int64(name[..<dash]), !name.hasSuffix(".tmp") else {
                try? FileManager.default.removeItem(at: file)
                continue
            }
            if states[issueID] == nil { states[issueID] = try issue(id: issueID)?.state.storedName ?? "" }
            if !keep.contains(states[issueID] ?? "") { try? FileManager.default.removeItem(at: file) }
        }
    }

    /// `.staging-NAME-UUID` and `.previous-NAME-UUID` folders of `IssueInstaller` left by a crash.
    static func cleanInstallLeftovers(in issuesDirectory: URL, olderThan age: TimeInterval, now: Date) {
        let fileManager = FileManager.default
        for publication in (try? fileManager.contentsOfDirectory(atPath: issuesDirectory.path)) ?? [] {
            let parent = issuesDirectory.appendingPathComponent(publication, isDirectory: true)
            for name in (try? fileManager.contentsOfDirectory(atPath: parent.path)) ?? [] {
                let isStaging = name.hasPrefix(IssueInstaller.stagingPrefix), isPrevious = name.hasPrefix(IssueInstaller.previousPrefix)
                guard isStaging || isPrevious else { continue }
                let item = parent.appendingPathComponent(name, isDirectory: true)
                let modified = (try? fileManager.attributesOfItem(atPath: item.path))?[.modificationDate] as? Date ?? .distantPast
                guard now.timeIntervalSince(modified) >= age else { continue }
                if isPrevious {
                    // .previous-NAME-UUID: put it back if NAME never arrived.
                    let rest = name.dropFirst(IssueInstaller.previousPrefix.count)
                    let original = parent.appendingPathComponent(String(rest.dropLast(37)), isDirectory: true)
                    if rest.count > 37, !fileManager.fileExists(atPath: original.path), (try? fileManager.moveItem(at: item, to: original)) != nil {
                        continue
                    }
                }
                try? fileManager.removeItem(at: item)
            }
        }
    }
}

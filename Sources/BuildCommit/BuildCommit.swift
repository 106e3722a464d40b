import Foundation
import PackagePlugin

/// Writes `BuildCommit.swift` (the commit the program is built from, for `newsstand --version`) before every
/// build of the target that uses it. `write-build-commit.sh` finds the commit: from git in a clone, from the
/// `archived-commit` file that `git archive` fills in for a tarball, else `unknown`; it rewrites the file only
/// when the commit changed, so a build at the same commit compiles nothing again.
@main
struct BuildCommit: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("Generated", isDirectory: true)
        let script = context.package.directoryURL.appendingPathComponent("Sources/BuildCommit/write-build-commit.sh")
        return [
            .prebuildCommand(displayName: "Recording the commit for --version",
                             executable: URL(fileURLWithPath: "/bin/sh"),
                             arguments: [script.path, context.package.directoryURL.path, output.path],
                             outputFilesDirectory: output),
        ]
    }
}

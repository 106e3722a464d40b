import Foundation
import NewsstandTestSupport
import XCTest

/// Paths and processes the end-to-end tests share: the built `newsstand`, the sample library, a private HOME.
enum TestEnvironment {
    static var sampleLibrary: URL { TestFiles.sampleLibrary }

    /// The `newsstand` built beside this test bundle (`swift build --build-tests` builds it).
    static func binary() throws -> URL {
        let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")).map(URL.init(fileURLWithPath:))
            ?? URL(fileURLWithPath: CommandLine.arguments[0])
        var directory = testBinary.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("newsstand")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw TestRequirement.broken("the newsstand executable was not built beside the tests; run `swift build --build-tests` first (make test does)")
    }

    /// A fresh HOME with nothing in it; removed by the caller's teardown.
    static func temporaryHome() throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-e2e-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return home
    }

    /// The environment a test runs the program in: an isolated HOME, no XDG overrides, a UTF-8 locale.
    static func environment(home: URL, sample: Bool = false) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("XDG_") && $0.key != "NO_COLOR" && $0.key != "COLORTERM" }
        environment["HOME"] = home.path
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = "C.UTF-8"
        environment["NEWSSTAND_SAMPLE_LIBRARY"] = sample ? sampleLibrary.path : "/nonexistent"
        return environment
    }

    /// Starts the command line without waiting for it; its output is thrown away, its errors go to `errors` if given.
    static func start(_ arguments: [String], environment: [String: String], errors: FileHandle? = nil) throws -> Process {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors ?? FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs the command line with no controlling terminal (`setsid`), `input` on its standard input.
    static func run(_ arguments: [String], input: String, environment: [String: String]) throws -> (status: Int32, output: String, errors: String) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setsid") else { throw TestRequirement.absent("setsid (util-linux) is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["--wait", try TestEnvironment.binary().path] + arguments
        process.environment = environment
        let output = Pipe(), errors = Pipe(), standardInput = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = standardInput
        try process.run()
        standardInput.fileHandleForWriting.write(Data(input.utf8))
        try standardInput.fileHandleForWriting.close()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// Runs the command line to completion.
    static func run(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String, errors: String) {
        try run(executable: try binary(), arguments, environment: environment)
    }

    /// Runs a program (the command line, or a shell wrapping it) to completion.
    static func run(executable: URL, _ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }
}

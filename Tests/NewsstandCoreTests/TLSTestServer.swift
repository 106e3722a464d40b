import Foundation
import XCTest
import LocalHTTPServer

/// A third-party TLS server (`openssl s_server`, `nghttpd`) on 127.0.0.1 with a fresh self-signed certificate
/// for 127.0.0.1 in a scratch folder, stopped at the end of the test. Skips the test when the program is missing (fails in CI); fails when it does not start.
struct TLSTestServer {
    let port: UInt16
    /// The certificate, for a client to trust (`certificateAuthorityFile`).
    let certificate: URL
    /// The scratch folder: the program's working directory, holding `cert.pem` and `key.pem`.
    let folder: URL
    private let process: Process

    /// What the program wrote to standard output (complete once ``stop()`` returned).
    var output: String {
        (try? String(contentsOf: folder.appendingPathComponent("output.log"), encoding: .utf8)) ?? ""
    }

    /// Stops the program and waits for it (the end of the test does it too).
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    func url(_ path: String) -> URL { URL(string: "https://127.0.0.1:\(port)\(path)")! }

    /// Runs `program` with the arguments `arguments(port)` gives (paths relative to the folder: `cert.pem`,
    /// `key.pem`, and the files of `files`) and waits until it accepts connections.
    static func start(_ program: String, for testCase: XCTestCase, files: [String: Data] = [:],
                      arguments: (UInt16) -> [String]) throws -> TLSTestServer {
        guard FileManager.default.isExecutableFile(atPath: program) else { throw TestRequirement.absent("\(program) is not installed (make test installs it)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else { throw TestRequirement.absent("openssl is not installed (Debian package openssl; make test installs it)") }
        let folder = try TestFiles.scratchFolder(for: testCase)
        try run("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                     "-keyout", "key.pem", "-out", "cert.pem", "-days", "2", "-subj", "/CN=127.0.0.1",
                                     "-addext", "subjectAltName=IP:127.0.0.1"], in: folder)
        for (name, data) in files {
            let file = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file)
        }
        let port = try freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments(port)
        process.currentDirectoryURL = folder
        let log = folder.appendingPathComponent("output.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        try output.close()
        let server = TLSTestServer(port: port, certificate: folder.appendingPathComponent("cert.pem"), folder: folder, process: process)
        testCase.addTeardownBlock { server.stop() }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if accepts(port: port) { return server }
            usleep(20_000)
        }
        throw TestRequirement.broken("\(program) did not start")
    }

    private static func run(_ program: String, _ arguments: [String], in folder: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestRequirement.broken("\(program) \(arguments.first ?? "") failed with status \(process.terminationStatus)") }
    }

    private static func freePort() throws -> UInt16 {
        let probe = LocalHTTPServer()
        try probe.start()
        let port = probe.port
        probe.stop()
        return port
    }

    private static func accepts(port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}

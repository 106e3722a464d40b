// swift-tools-version:6.0
import PackageDescription

/// Newsstand: a terminal magazine reader.
///
/// Layering (each arrow is "depends on"):
///   newsstand (CLI) → NewsstandTerminal (ncurses backend, run loop) → NewsstandRuntime (effect runner, reader work, library loading)
///   NewsstandRuntime → NewsstandUI (cell buffer, screens, state, update: pure)
///   NewsstandUI → NewsstandCore (models, library store, catalogs, downloads, covers)
///   NewsstandTerminal → NewsstandPictures (terminal picture protocols as bytes, encoded off the UI thread; libsixel) → NewsstandUI, NewsstandImaging
///   NewsstandCore → NewsstandContent (archives, EPUB, text; libarchive, libxml2) and NewsstandImaging (decode, resample, ASCII art);
///   NewsstandCore's network layer drives libcurl (CCurl) on one thread; it reads XML feeds with libxml2's streaming (SAX2 push) parser
/// Nothing below NewsstandTerminal knows the terminal exists. Every module a target imports is listed in its dependencies.

/// Release executables link SQLite, ncurses, libpng and libjpeg statically, from Debian's archives (`-l:` names the
/// file): a shared library's symbols are looked up one by one by the dynamic loader at every start, and these four
/// made half of those lookups (`newsstand --version`: SQLite 1,596, ncurses 495, libpng and libjpeg 252 of 4,609);
/// linked in, their calls need none. zlib (for libpng) and GCC's C++ runtime (for the Swift runtime) are linked in
/// from their archives too: `Sources/newsstand/Linking` holds a linker script named `libstdc++.so`, found before the
/// real one, that says so. Debug builds (the tests) link them all shared.
let staticLibraries = ["-L", Context.packageDirectory + "/Sources/newsstand/Linking"]
    + ["libsqlite3.a", "libncursesw.a", "libtinfo.a", "libpng16.a", "libjpeg.a", "libz.a"].flatMap { ["-Xlinker", "-l:" + $0] } + ["-lm"]

/// Release builds reach a concrete type's metadata through an accessor function the compiler emits, not through its
/// mangled name: by name, the first use of each type at run time demangles it and scans the executable's protocol
/// conformances for what its generic arguments need (`[String: String]` looks up `String: Hashable`), most of the time
/// a start spends between `main` and reading the config. `newsstand --version` takes 8% less (`perf stat -r 50`:
/// 2.93 ms against 3.18); the shelf reaches its first frame 0.2–0.3 ms sooner (README of the benchmarks, "Seventh round").
let releaseSwiftSettings: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release)),
]

let package = Package(
    name: "Newsstand",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "newsstand", targets: ["newsstand"]),
        .executable(name: "newsstand-bench", targets: ["newsstand-bench"]),
    ],
    targets: [
        // Platform C libraries.
        // No link lines in their module maps and no pkgConfig: ncurses, SQLite, libpng and libjpeg are linked as shared
        // libraries by the targets that use them in debug builds (tests), and statically into release executables
        // (`staticLibraries` below).
        .systemLibrary(name: "CNcursesw", providers: [.apt(["libncurses-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // No pkgConfig: libarchive is opened when an archive is first read or written, not linked (see CArchive/shim.h).
        .systemLibrary(name: "CArchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CPNG", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CJPEG", providers: [.apt(["libjpeg62-turbo-dev"])]),
        // No pkgConfig: libcrypto is opened when a digest is first taken, not linked (see CCrypto/shim.h).
        .systemLibrary(name: "CCrypto", providers: [.apt(["libssl-dev"])]),
        // libxml2 is opened when a document is first parsed, not linked (see CLibXML2/include/shim.h): a C target holding
        // the table of its entry points, whose include/libxml links to the system's headers (Debian's libxml2-dev).
        .target(name: "CLibXML2"),
        // No pkgConfig: its linker flags would link libcurl, which is opened at run time instead (see CCurl/shim.h).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // No pkgConfig: libsixel is opened when a picture is first encoded as sixels, not linked (see CSixel/shim.h).
        .systemLibrary(name: "CSixel", providers: [.apt(["libsixel-dev"])]),

        // Core: knows nothing of the terminal.
        .target(name: "NewsstandImaging", dependencies: ["CPNG", "CJPEG"], swiftSettings: releaseSwiftSettings,
                linkerSettings: [.linkedLibrary("png16", .when(configuration: .debug)), .linkedLibrary("jpeg", .when(configuration: .debug))]),
        .target(name: "NewsstandContent", dependencies: ["CArchive", "CLibXML2"], swiftSettings: releaseSwiftSettings),
        .target(name: "NewsstandCore", dependencies: ["NewsstandImaging", "NewsstandContent", "CSQLite", "CCrypto", "CCurl", "CLibXML2"], swiftSettings: releaseSwiftSettings,
                linkerSettings: [.linkedLibrary("sqlite3", .when(configuration: .debug))]),

        // Terminal pictures as bytes: kitty graphics (and its placeholders), sixel (libsixel) and iTerm2 images, encoded on a
        // queue of their own, and what a frame's picture cells need written. No terminal I/O.
        .target(name: "NewsstandPictures", dependencies: ["NewsstandUI", "NewsstandImaging", "CSixel"], swiftSettings: releaseSwiftSettings),

        // Front end: renders state into a cell buffer; no ncurses here.
        .target(name: "NewsstandUI", dependencies: ["NewsstandCore", "NewsstandContent", "NewsstandImaging"], swiftSettings: releaseSwiftSettings),
        // The app runtime: carries out the UI's effects in the background (downloads, covers, reading, library windows) and answers with messages.
        .target(name: "NewsstandRuntime", dependencies: ["NewsstandUI", "NewsstandCore", "NewsstandContent", "NewsstandImaging"], swiftSettings: releaseSwiftSettings),
        // The only importer of ncursesw: draws buffer changes, reads keys, owns the run loop.
        .target(name: "NewsstandTerminal", dependencies: ["NewsstandRuntime", "NewsstandUI", "NewsstandCore", "NewsstandContent", "NewsstandImaging", "NewsstandPictures", "CNcursesw"], swiftSettings: releaseSwiftSettings,
                linkerSettings: [.linkedLibrary("ncursesw", .when(configuration: .debug)), .linkedLibrary("tinfo", .when(configuration: .debug))]),

        // A small HTTP/1.1 server on 127.0.0.1 (Range, throttling, fault injection) for tests, demo mode and benchmarks.
        .target(name: "LocalHTTPServer", dependencies: ["CCrypto"], swiftSettings: releaseSwiftSettings),
        // A real FreshRSS (PHP's built-in server, SQLite) on 127.0.0.1 and free local ports, for the accounts tests and benchmark.
        .target(name: "FreshRSSHarness"),
        // Pictures of known structure (a title band, gradients, text) that the tests and the benchmark measure covers on.
        .target(name: "TestPictures", dependencies: ["NewsstandImaging"]),
        // Text art as a real terminal draws it: xterm with a TrueType face on a private Xvfb, photographed with xwd
        // (the covers benchmark's second fidelity score, and the test of it).
        .target(name: "TerminalCamera", dependencies: ["NewsstandImaging"]),

        // Release builds link with lld and packed relative relocations (DT_RELR, glibc ≥ 2.36): the executable's
        // 78,000 relative relocations shrink from 1.9 MB of RELA entries to 15 KB the loader walks faster
        // (about 5% of the instructions before `main`; README, "Start-up"), and link `staticLibraries` (above).
        .executableTarget(name: "newsstand", dependencies: ["NewsstandTerminal", "NewsstandRuntime", "NewsstandUI", "NewsstandCore", "NewsstandContent", "NewsstandImaging", "LocalHTTPServer"],
                          exclude: ["Linking"],
                          swiftSettings: releaseSwiftSettings,
                          linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"] + staticLibraries,
                                                        .when(configuration: .release))],
                          plugins: ["BuildCommit"]),
        .executableTarget(name: "newsstand-bench", dependencies: ["NewsstandRuntime", "NewsstandUI", "NewsstandCore", "NewsstandContent", "NewsstandImaging", "NewsstandPictures", "LocalHTTPServer", "TestPictures", "TerminalCamera", "CLibXML2", "FreshRSSHarness"],
                          exclude: ["README.md"],
                          // Its libxml2 floors call libxml2 directly, linked (the program's own code goes through CLibXML2's table).
                          linkerSettings: [.linkedLibrary("xml2"), .unsafeFlags(["-use-ld=lld"] + staticLibraries, .when(configuration: .release))]),

        // Writes the commit being built into the newsstand target, for `--version` (git in a clone, `git archive`'s stamp in a tarball).
        .plugin(name: "BuildCommit", capability: .buildTool(), path: "Sources/BuildCommit"),

        // Helpers shared by the test targets: sample library and corpora paths, scratch folders, generated comic books.
        .target(name: "NewsstandTestSupport", dependencies: ["NewsstandContent", "NewsstandImaging", "FreshRSSHarness"], path: "Tests/NewsstandTestSupport"),
        .testTarget(name: "NewsstandImagingTests", dependencies: ["NewsstandImaging", "NewsstandTestSupport", "TestPictures", "TerminalCamera"]),
        .testTarget(name: "NewsstandContentTests", dependencies: ["NewsstandContent", "NewsstandTestSupport"]),
        .testTarget(name: "NewsstandCoreTests", dependencies: ["NewsstandCore", "NewsstandContent", "NewsstandImaging", "LocalHTTPServer"]),
        .testTarget(name: "NewsstandUITests", dependencies: ["NewsstandUI", "NewsstandCore", "NewsstandContent", "NewsstandImaging", "NewsstandTestSupport"]),
        .testTarget(name: "NewsstandRuntimeTests", dependencies: ["NewsstandRuntime", "NewsstandUI", "NewsstandCore", "NewsstandContent", "NewsstandImaging", "NewsstandTestSupport", "LocalHTTPServer"]),
        .testTarget(name: "NewsstandPicturesTests", dependencies: ["NewsstandPictures", "NewsstandImaging", "NewsstandUI"]),
        .testTarget(name: "NewsstandTerminalTests", dependencies: ["NewsstandTerminal", "NewsstandImaging", "NewsstandPictures", "NewsstandUI"]),
        .testTarget(name: "LocalHTTPServerTests", dependencies: ["LocalHTTPServer", "NewsstandTestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["LocalHTTPServer", "NewsstandCore", "NewsstandContent", "NewsstandImaging", "NewsstandUI", "NewsstandTestSupport", "TerminalCamera"]),
    ]
)

import Foundation

/// `newsstand-bench`: prints Newsstand's performance figures as tables; never asserts.
///
///     newsstand-bench                 every case: shelf, launch, covers, pictures, feeds, reader, cbz, sync, accounts, downloads and catalog
///     newsstand-bench shelf           the shelf at scale only
///     newsstand-bench launch          the real newsstand binary in tmux to its first complete frame at 500 and 50,000 issues
///                                     (vs a minimal ncurses program and newsboat), and its peak memory; then the start-up rows
///     newsstand-bench startup         the launch case's start-up rows alone: spawn → main against a static Swift hello, and the
///                                     terminal's questions (OSC 11 background included) answered at once or not at all
///     newsstand-bench covers          cover rendering only (timing, then fidelity against jp2a and chafa)
///     newsstand-bench fidelity        the covers' fidelity table alone
///     newsstand-bench pictures        terminal pictures: a cover made at the size shown, encoded and sent with kitty, sixel and iTerm2
///     newsstand-bench feeds           feed parsing only (10,000-entry Atom and RSS; Python's feedparser when installed)
///     newsstand-bench reader          opening a 300-article issue; reflowing a 20,000-word article
///     newsstand-bench cbz             a 500-page comic book: install, open to its first page, turn 100 pages (time per page, memory)
///     newsstand-bench sync            a sync of 1,000 subscriptions from a local server, cold and unchanged (304), vs curl and newsboat
///     newsstand-bench accounts        a FreshRSS account of 1,000 feeds × 50 items synced first and unchanged (time, requests), vs a
///                                     direct sync of the same feeds; `--feeds N --items N` change the size
///     newsstand-bench progress-sync   opening an issue with progress sync on and off; a sync of 1,000 issues' places, cold and unchanged
///     newsstand-bench downloads       downloads (and URLSession and HTTPClient alone) against curl, and keypresses while they run (also --downloads)
///     newsstand-bench catalog         the catalog browser paging through a 50,000-entry OPDS catalog (100 a page) to its 100th page:
///                                     per-page time and resident memory, which should stay flat
///     newsstand-bench articles        article extraction over the shared Readability pages: time per page, MB/s, memory, word F1
///                                     (readability-lxml and trafilatura on the same pages when installed)
///
/// Hidden child modes, used by the shelf case to measure a real process start:
///     --child-first-frame ROOT WIDTH HEIGHT    build the first shelf frame from the library under ROOT
///     --child-noop                             report reaching main and exit

/// Taken first, before anything else runs in `main`.
let mainEnteredAt = MonotonicClock.now()

let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "--child-noop" {
    print("main=\(mainEnteredAt)")
    exit(0)
}
if arguments.first == "--child-first-frame" {
    guard arguments.count == 4, let width = Int(arguments[2]), let height = Int(arguments[3]) else {
        FileHandle.standardError.write(Data("usage: newsstand-bench --child-first-frame ROOT WIDTH HEIGHT\n".utf8))
        exit(2)
    }
    do {
        try FirstFrame.runChild(root: arguments[1], width: width, height: height, mainEnteredAt: mainEnteredAt)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("newsstand-bench child: \(error)\n".utf8))
        exit(1)
    }
}

do {
    try BenchmarkRunner.run(arguments: arguments)
} catch {
    FileHandle.standardError.write(Data("newsstand-bench: \(error)\n".utf8))
    exit(1)
}

import Foundation

/// The floor of the launch case: the least a curses program can do to show something. It starts
/// curses, prints one line (its first argument), refreshes and waits for a key; no library, no files.
///
/// Compiled at benchmark time with the system's C compiler into a temporary folder (its source is
/// kept here rather than in the repository's build) and launched in the same terminal as the readers.
enum MinimalCursesProgram {
    static let source = #"""
        #define _XOPEN_SOURCE_EXTENDED 1
        #include <curses.h>
        #include <locale.h>

        int main(int argc, char **argv) {
            setlocale(LC_ALL, "");
            initscr();
            cbreak();
            noecho();
            keypad(stdscr, TRUE);
            mvaddstr(0, 0, argc > 1 ? argv[1] : "ready");
            refresh();
            getch();
            endwin();
            return 0;
        }
        """#

    /// The line it prints when launched by the benchmark.
    static let line = "newsstand-bench: minimal ncurses program ready"

    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// Compiles the program into `folder`; returns its path and the compiler used.
    static func build(in folder: URL) throws -> (executable: URL, compiler: String) {
        guard let compiler = ["cc", "clang", "gcc"].lazy.compactMap(ChildProcess.which).first else {
            throw Unavailable(description: "no C compiler (cc, clang or gcc) on PATH")
        }
        let sourceFile = folder.appendingPathComponent("minimal-curses.c")
        let executable = folder.appendingPathComponent("minimal-curses")
        try Data(source.utf8).write(to: sourceFile)
        let outcome = try ChildProcess.run(compiler, ["-O2", "-o", executable.path, sourceFile.path, "-lncursesw"], quiet: true)
        guard outcome.status == 0, FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw Unavailable(description: "\(compiler) could not build it against -lncursesw (status \(outcome.status); is libncurses-dev installed?)")
        }
        return (executable, URL(fileURLWithPath: compiler).lastPathComponent)
    }
}

import Foundation
import NewsstandContent
import NewsstandImaging

/// The user's settings, read from `$XDG_CONFIG_HOME/newsstand/config`.
///
/// Plain text, one `key value` per line, `#` for comments:
///
///     theme paper
///     max-downloads 3
///     storage-budget 2G
///     refresh-interval 60
///     rate-limit 1M
///     max-download-size 4G
///     disk-reserve 1G
///     stall-timeout 30
///     player mpv %u
///     max-headlines 200
///     full-text ask
///     progress-sync https://sync.example.org
public struct Configuration: Equatable, Sendable {
    /// Theme name (a file `NAME.theme`), or `auto`: `dark` or `paper` as the terminal's background is dark or light.
    public var theme = "auto"
    /// Transfers that run at once.
    public var maxDownloads = 3
    /// Bytes downloaded issues may take in all; beyond it, sync removes the oldest read ones. nil: no limit.
    public var storageBudget: Int64?
    /// Quiet hours and a daily cap for automatic downloads.
    public var autoDownloadLimits = AutoDownloadLimits()
    /// The longest line of article text, in columns.
    public var measure = 72
    /// Minutes between catalog refreshes while the shelf is open; 0 turns them off.
    public var refreshIntervalMinutes = 60
    /// How covers and pictures are shown (a picture protocol or a text mode); nil (`auto`) chooses from the terminal (and theme).
    public var coverMode: CoverModeSetting?
    /// Bytes per second for all downloads together; nil (`off`, the default) for no limit.
    public var rateLimit: Int?
    /// The most bytes one issue may download when its catalog gives no size (with a size, that size and a
    /// small margin bound it): a server that sends without end is stopped there.
    public var maxDownloadSize: Int64 = DownloadPolicy.defaultMaxDownloadSize
    /// Free bytes downloads leave on the disk: writing stops before the free space would go below it.
    public var diskReserve: Int64 = DownloadPolicy.defaultDiskReserve
    /// Seconds a download may receive nothing before the attempt fails (and is retried from its partial).
    public var stallTimeout: Int = DownloadPolicy.defaultStallTimeout
    /// The program a headline's audio or video file is handed to; nil: the browser.
    public var player: HookCommand?
    /// The program links are opened with; nil: the system opener (xdg-open).
    public var browser: HookCommand?
    /// The program run after a sync that brought new issues (a summary as arguments, JSON on its input); nil: none.
    public var notifyProgram: HookCommand?
    /// How many headlines (feed items read as articles, or played) each publication keeps: its feed's first.
    public var maxHeadlines = Configuration.defaultMaxHeadlines
    public static let defaultMaxHeadlines = 200
    /// When headlines get their whole article, for feeds without a `full-text` of their own (the subscriptions screen's `w`,
    /// `subscribe --full-text`).
    public var fullText: FullTextMode = .ask
    /// For screen readers: the cursor on the selected row or reading line, no decoration, state changes in words.
    public var screenReader = false
    /// Words per minute for the reader's time-left estimate; nil (`auto`, the default) learns it from the reader's pace.
    public var readingSpeed: Int?
    /// The most entries one refresh stores from a feed (the newest; at most 10 pages are read either way).
    public var maxCatalogEntries: Int = PublicationRefresher.defaultMaxEntries
    /// Reading positions shared with a kosync server (KOReader's progress sync): off unless `progress-sync URL` is set.
    public var progressSync = ProgressSyncSettings()

    public init() {}

    /// Every setting the file may hold, in the order the README lists them.
    public static var settingNames: [String] { settings.map(\.name) }

    /// Every setting with what it takes and what it does, in the same order (the manual page lists them).
    public static var settingDescriptions: [(name: String, takes: String, what: String)] { settings.map { ($0.name, $0.takes, $0.what) } }

    /// Problems found while reading, each naming its line; the rest of the file still applies.
    public private(set) var warnings: [String] = []
    /// The `bind` and `unbind` lines, in file order: the interface checks and applies them to its key table.
    public private(set) var keyBindingLines: [KeyBindingLine] = []

    public static func load(from file: URL) -> Configuration {
        load(text: SettingsFileText.contents(of: file), of: file)
    }

    /// The configuration in `text`, `file`'s contents as already read (nil: no config file, the defaults).
    public static func load(text: String?, of file: URL) -> Configuration {
        text.map { parse($0, source: file.path) } ?? Configuration()
    }

    public static func parse(_ text: String, source: String = "config") -> Configuration {
        var configuration = Configuration()
        for (offset, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let key = words.first else { continue }
            let value = words.dropFirst().joined(separator: " ")
            let place = "\(source), line \(offset + 1)"
            if let verb = KeyBindingLine.Verb(rawValue: key) {
                configuration.keyBindingLines.append(KeyBindingLine(source: source, line: offset + 1, verb: verb, arguments: Array(words.dropFirst())))
                continue
            }
            guard let setting = settings.first(where: { $0.name == key }) else {
                configuration.warnings.append("\(place): unknown setting '\(key)' (settings: \(settingNames.joined(separator: ", ")); keys: bind, unbind)")
                continue
            }
            if !setting.apply(&configuration, value) {
                configuration.warnings.append("\(place): \(setting.name) takes \(setting.takes)")
            }
        }
        return configuration
    }

    /// One setting of the file: its name, what it takes (said when a value is not valid), and how a value
    /// applies (false when it is not valid, leaving the setting as it was).
    private struct Setting: Sendable {
        let name: String
        let takes: String
        /// What the setting does, a sentence with its default (the manual page says it); empty when not written yet.
        let what: String
        let apply: @Sendable (inout Configuration, String) -> Bool

        init(name: String, takes: String, what: String = "", apply: @escaping @Sendable (inout Configuration, String) -> Bool) {
            self.name = name
            self.takes = takes
            self.what = what
            self.apply = apply
        }
    }

    private static let settings: [Setting] = [
        Setting(name: "theme", takes: "the name of a theme", what: "The colours and styles of the screens: a theme file NAME.theme, yours or a bundled one, or auto: dark or paper as the terminal's background is dark or light (default: auto)") { configuration, value in
            guard !value.isEmpty else { return false }
            configuration.theme = value
            return true
        },
        Setting(name: "max-downloads", takes: "a number from 1 to 16", what: "Transfers that run at once (default: 3)") { configuration, value in
            guard let count = Int(value), (1...16).contains(count) else { return false }
            configuration.maxDownloads = count
            return true
        },
        Setting(name: "storage-budget", takes: "a size such as 500M or 2G", what: "The space downloaded issues may take in all; beyond it, sync removes the oldest read ones (default: no limit)") { configuration, value in
            guard let bytes = parseSize(value) else { return false }
            configuration.storageBudget = bytes
            return true
        },
        Setting(name: "refresh-interval", takes: "minutes from 0 (off) to 10080", what: "Minutes between catalog refreshes while the shelf is open; 0 turns them off (default: 60)") { configuration, value in
            guard let minutes = Int(value), (0...10_080).contains(minutes) else { return false }
            configuration.refreshIntervalMinutes = minutes
            return true
        },
        Setting(name: "quiet-hours", takes: "HH:MM-HH:MM (for example 23:00-07:00) or off", what: "Local hours in which no automatic download starts (default: off)") { configuration, value in
            if value == "off" {
                configuration.autoDownloadLimits.quietHours = nil
                return true
            }
            guard let hours = AutoDownloadLimits.QuietHours(value) else { return false }
            configuration.autoDownloadLimits.quietHours = hours
            return true
        },
        Setting(name: "daily-download-cap", takes: "a number of issues", what: "Automatic downloads that may start in a day (default: no cap)") { configuration, value in
            guard let count = Int(value), count >= 0 else { return false }
            configuration.autoDownloadLimits.dailyCap = count
            return true
        },
        Setting(name: "measure", takes: "a number of columns from 20 to 400", what: "The longest line of article text, in columns (default: 72)") { configuration, value in
            guard let columns = Int(value), (20...400).contains(columns) else { return false }
            configuration.measure = columns
            return true
        },
        Setting(name: "cover-mode", takes: CoverModeSetting.spelledOut, what: "How covers and pictures are shown: auto chooses from the terminal's answers and the theme (default: auto)") { configuration, value in
            guard let mode = CoverModeSetting(rawValue: value) else { return false }
            configuration.coverMode = mode == .auto ? nil : mode
            return true
        },
        Setting(name: "rate-limit", takes: "bytes per second such as 512K or 2M, or off", what: "Bytes per second for all downloads together (default: off, no limit)") { configuration, value in
            if value.lowercased() == "off" || value == "0" {
                configuration.rateLimit = nil
                return true
            }
            guard let bytes = parseSize(value), bytes >= 1024, bytes <= Int64(Int32.max) else { return false }
            configuration.rateLimit = Int(bytes)
            return true
        },
        Setting(name: "max-download-size", takes: "a size of at least 1M, such as 500M or 8G", what: "The most one issue may download when its catalog gives no size (default: 4G)") { configuration, value in
            guard let bytes = parseSize(value), bytes >= 1 << 20 else { return false }
            configuration.maxDownloadSize = bytes
            return true
        },
        Setting(name: "disk-reserve", takes: "a size such as 500M or 2G, or 0", what: "Free space downloads leave on the disk: writing stops before going below it (default: 1G)") { configuration, value in
            guard let bytes = parseSize(value) else { return false }
            configuration.diskReserve = bytes
            return true
        },
        Setting(name: "stall-timeout", takes: "seconds from 1 to 3600", what: "Seconds a download may receive nothing before the attempt fails and is retried from where it stopped (default: 30)") { configuration, value in
            guard let seconds = Int(value), (1...3600).contains(seconds) else { return false }
            configuration.stallTimeout = seconds
            return true
        },
        program("player", takes: "a program and its arguments, %u for the file's URL, %f for a local file (for example mpv %u)", what: "The program a headline's audio or video file is handed to (default: the browser)", \.player),
        program("browser", takes: "a program and its arguments, %u for the link (for example firefox %u)", what: "The program links are opened with (default: xdg-open)", \.browser),
        program("notify-program", takes: "a program and its arguments (for example notify-send Newsstand)", what: "The program run after a sync that brought new issues, with a summary as arguments and JSON on its input (default: none)", \.notifyProgram),
        Setting(name: "max-headlines", takes: "a number from 0 to 100000", what: "Headlines each publication keeps, its feed's first (default: 200)") { configuration, value in
            guard let count = Int(value), (0...100_000).contains(count) else { return false }
            configuration.maxHeadlines = count
            return true
        },
        Setting(name: "full-text", takes: FullTextMode.spelledOut, what: "When a headline's whole article (its linked page's, extracted) is fetched, for feeds without their own setting: never (only F in the reader), ask (also on opening an item of under 150 words), always (also during sync, for every new headline) (default: ask)") { configuration, value in
            guard let mode = FullTextMode(rawValue: value) else { return false }
            configuration.fullText = mode
            return true
        },
        Setting(name: "screen-reader", takes: "on or off", what: "For screen readers: the cursor on the selected row or reading line, no decoration, changes said in words (default: off)") { configuration, value in
            switch value {
            case "on", "yes", "true": configuration.screenReader = true
            case "off", "no", "false": configuration.screenReader = false
            default: return false
            }
            return true
        },
        Setting(name: "reading-speed", takes: "words per minute from 50 to 2000, or auto (learned from your pace)", what: "Words per minute for the reader's time left (default: auto, learned from your pace)") { configuration, value in
            if value == "auto" {
                configuration.readingSpeed = nil
                return true
            }
            guard let words = Int(value), (50...2000).contains(words) else { return false }
            configuration.readingSpeed = words
            return true
        },
        Setting(name: "max-catalog-entries", takes: "a number of entries from 1 to 1000000", what: "The most entries (the newest) one refresh stores from a feed (default: 1000)") { configuration, value in
            guard let count = Int(value), (1...1_000_000).contains(count) else { return false }
            configuration.maxCatalogEntries = count
            return true
        },
        Setting(name: "progress-sync", takes: "a kosync server's URL (http or https, no login in it), or off", what: "Reading places shared with a kosync server, KOReader's progress sync (Komga's or Kavita's kosync URL too) (default: off)") { configuration, value in
            if value == "off" {
                configuration.progressSync.server = nil
                return true
            }
            guard let url = ProgressSyncSettings.serverURL(value) else { return false }
            configuration.progressSync.server = url
            return true
        },
        Setting(name: "progress-sync-device", takes: "a name for this device: letters, digits, spaces, - _ . (at most 100)", what: "The device name other readers see (default: the host name)") { configuration, value in
            let name = TextSanitizer.singleLine(value)
            guard !name.isEmpty, name.count <= 100,
                  name.allSatisfy({ $0.isLetter || $0.isNumber || " -_.".contains($0) }) else { return false }
            configuration.progressSync.device = name
            return true
        },
        Setting(name: "progress-sync-document", takes: "binary (KOReader's partial MD5 of the file) or filename", what: "How issues are known to the server: binary, KOReader's partial MD5 of the file, or filename, the MD5 of its name (default: binary)") { configuration, value in
            guard let method = ProgressSyncSettings.DocumentMethod(rawValue: value) else { return false }
            configuration.progressSync.document = method
            return true
        },
        Setting(name: "progress-sync-forward", takes: "ask, jump or ignore", what: "What a newer place from another device, further on, does: ask on the status line, jump to it, or ignore it (default: ask)") { configuration, value in
            guard let choice = ProgressSyncSettings.Forward(rawValue: value) else { return false }
            configuration.progressSync.forward = choice
            return true
        },
        Setting(name: "progress-sync-backward", takes: "ask or ignore", what: "What a newer place from another device, further back, does: ask or ignore (default: ignore)") { configuration, value in
            guard let choice = ProgressSyncSettings.Backward(rawValue: value) else { return false }
            configuration.progressSync.backward = choice
            return true
        },
    ]

    /// A setting that names a program to run (`HookCommand`).
    private static func program(_ name: String, takes: String, what: String = "", _ field: WritableKeyPath<Configuration, HookCommand?> & Sendable) -> Setting {
        Setting(name: name, takes: takes, what: what) { configuration, value in
            guard let command = HookCommand(value) else { return false }
            configuration[keyPath: field] = command
            return true
        }
    }

    /// "500M", "2G", "750K" or plain bytes.
    public static func parseSize(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
        var digits = Substring(trimmed)
        var multiplier: Int64 = 1
        if digits.hasSuffix("B") { digits = digits.dropLast() }
        if let unit = digits.last, let factor = units[unit] {
            multiplier = factor
            digits = digits.dropLast()
        }
        guard let number = Double(digits), number >= 0, number * Double(multiplier) < 9e18 else { return nil }
        return Int64(number * Double(multiplier))
    }
}

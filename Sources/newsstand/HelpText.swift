/// The text `newsstand --help` prints.
enum HelpText {
    static let usage = """
    newsstand — a terminal newsstand: a shelf of magazine issues to download and read.

    USAGE
      newsstand [--theme NAME] [--cover-mode MODE] [--demo]
                                             open the shelf (keys: press ? inside)
      newsstand subscribe URL [--auto-download none|latest|all] [--keep N]
                                             subscribe to a publication's catalog (http, https, file or a path)
      newsstand unsubscribe PUBLICATION [--keep-downloads]
                                             remove a publication (and its downloaded issues, unless kept)
      newsstand subscriptions [--json]       each subscription: policy, last refresh, new/downloaded/all counts
      newsstand sync [--quiet]               refresh every subscription, download per policy, keep to limits
      newsstand storage [--evict]            space used per publication and what the budget would remove
      newsstand import FILE                  subscribe to every feed in an OPML file (newsboat's export works)
      newsstand export                       print the subscriptions as OPML
      newsstand list [--json]                list every issue and its state
      newsstand download ISSUE...            download issues now, continuing any partial download
                                             (progress on stderr; exit status 1 if any fails)
      newsstand read ISSUE [--plain] [--article N] [--width N]
                                             print an issue's text (one article with --article)
      newsstand read ISSUE --toc             print an issue's table of contents, numbered as for --article
      newsstand search TEXT... [--limit N]   find words in every downloaded issue: issue, article, snippet per match
      newsstand cover ISSUE|--file PATH [--width N] [--height N] [--mode ascii|ascii-color|blocks] [--light]
                                             print a cover as text art
      newsstand --help | --version

    ISSUE is an issue's name, or PUBLICATION/NAME when names repeat across publications.

    OPTIONS
      --theme NAME   a theme from Themes/ or ~/.config/newsstand/themes (dark, paper, mono)
      --cover-mode   auto, ascii, ascii-color or blocks (default: auto, from the terminal's colours)
      --demo         serve the sample library over HTTP on 127.0.0.1, throttled, in a throwaway library

    FILES
      $XDG_DATA_HOME/newsstand     library database and downloaded issues (~/.local/share/newsstand)
      $XDG_CONFIG_HOME/newsstand   config file and user themes (~/.config/newsstand)
      $XDG_CACHE_HOME/newsstand    cover images (~/.cache/newsstand)

    ENVIRONMENT
      NO_COLOR                     no colours, structure by bold and reverse video
      NEWSSTAND_SAMPLE_LIBRARY     where the bundled sample library is
      NEWSSTAND_THEMES             where the bundled themes are
    """
}

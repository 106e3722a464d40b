import Foundation

/// OPDS as Komga and Kavita write it, rebuilt from their servers' source (Komga's `opds/v1.2` and `opds/v2`
/// controllers, Kavita's `OpdsController`): their link relations, media types, page parameters and search
/// documents, with made-up titles. Neither server is packaged for Debian, so tests serve these instead.
enum OPDSDialectFixtures {
    static let atomNavigation = "application/atom+xml;profile=opds-catalog;kind=navigation"
    static let atomAcquisition = "application/atom+xml;profile=opds-catalog;kind=acquisition"

    // MARK: Komga (OPDS 1.2 at /opds/v1.2/, OPDS 2 at /opds/v2/)

    /// Komga's root: subsections only ("Keep Reading", "On Deck", "All series", "Latest series", "Latest books", …),
    /// an OpenSearch description at `search`, and the OPDS 2 catalog as `alternate`.
    static let komgaRoot = """
        <?xml version="1.0" encoding="UTF-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog">
          <id>root</id><title>Komga OPDS catalog</title><updated>2026-02-01T10:00:00Z</updated>
          <author><name>Komga</name><uri>https://github.com/gotson/komga</uri></author>
          <link type="\(atomNavigation)" rel="self" href="/opds/v1.2/catalog"/>
          <link type="\(atomNavigation)" rel="start" href="/opds/v1.2/catalog"/>
          <link type="application/opensearchdescription+xml" rel="search" href="/opds/v1.2/search"/>
          <link type="application/opds+json" rel="alternate" href="/opds/v2/catalog"/>
          <entry><title>Keep Reading</title><updated>2026-02-01T10:00:00Z</updated><id>keepReading</id>
            <content type="text">Continue reading your in progress books</content>
            <link type="\(atomNavigation)" rel="subsection" href="/opds/v1.2/keep-reading"/></entry>
          <entry><title>All series</title><updated>2026-02-01T10:00:00Z</updated><id>allSeries</id>
            <content type="text">Browse by series</content>
            <link type="\(atomNavigation)" rel="subsection" href="/opds/v1.2/series"/></entry>
          <entry><title>Latest series</title><updated>2026-02-01T10:00:00Z</updated><id>latestSeries</id>
            <content type="text">Browse latest series</content>
            <link type="\(atomNavigation)" rel="subsection" href="/opds/v1.2/series/latest"/></entry>
          <entry><title>Latest books</title><updated>2026-02-01T10:00:00Z</updated><id>latestBooks</id>
            <content type="text">Browse latest books</content>
            <link type="\(atomNavigation)" rel="subsection" href="/opds/v1.2/books/latest"/></entry>
          <entry><title>All libraries</title><updated>2026-02-01T10:00:00Z</updated><id>allLibraries</id>
            <content type="text">Browse by library</content>
            <link type="\(atomNavigation)" rel="subsection" href="/opds/v1.2/libraries"/></entry>
        </feed>
        """

    /// Komga's OpenSearch description: searches series by title.
    static let komgaSearchDescription = """
        <?xml version="1.0" encoding="UTF-8"?>
        <OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
          <ShortName>Search</ShortName><Description>Search for series</Description>
          <InputEncoding>UTF-8</InputEncoding><OutputEncoding>UTF-8</OutputEncoding>
          <Url type="application/atom+xml;profile=opds-catalog;kind=acquisition" template="/opds/v1.2/series?search={searchTerms}"/>
        </OpenSearchDescription>
        """

    /// A series as a navigation entry (Komga lists series, then a series' books).
    static func komgaSeriesEntry(id: String, title: String) -> String {
        """
          <entry><title>\(title)</title><updated>2026-01-15T08:00:00Z</updated><id>\(id)</id><content type="text"></content>
            <link type="\(atomNavigation)" rel="subsection" href="/opds/v1.2/series/\(id)"/></entry>
        """
    }

    /// A book as Komga writes it: thumbnail and image, the file (CBZ is `application/zip` to Komga), and
    /// OPDS-PSE page streaming with `pse:count`.
    static func komgaBookEntry(id: String, title: String, day: Int, pages: Int = 24) -> String {
        """
          <entry><title>\(title)</title><updated>2026-01-\(String(format: "%02d", day))T08:00:00Z</updated><id>\(id)</id>
            <content type="text">cbz - 12.3 MiB</content><author><name>Ada Inker</name></author>
            <link type="image/jpeg" rel="http://opds-spec.org/image/thumbnail" href="/opds/v1.2/books/\(id)/thumbnail/small"/>
            <link type="image/jpeg" rel="http://opds-spec.org/image" href="/opds/v1.2/books/\(id)/thumbnail"/>
            <link type="application/zip" rel="http://opds-spec.org/acquisition" href="/opds/v1.2/books/\(id)/file/\(id).cbz"/>
            <link xmlns:pse="http://vaemendis.net/opds-pse/ns" type="image/jpeg" rel="http://vaemendis.net/opds-pse/stream"
                  href="/opds/v1.2/books/\(id)/pages/{pageNumber}?convert=jpeg" pse:count="\(pages)"/></entry>
        """
    }

    /// An acquisition feed page of Komga's: `self`, `start`, and `previous` / `next` as `?page=N` (from 0).
    static func komgaBooksPage(path: String, title: String, page: Int, lastPage: Int, entries: [String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog">
          <id>\(path)</id><title>\(title)</title><updated>2026-02-01T10:00:00Z</updated>
          <link type="\(atomNavigation)" rel="self" href="\(path)"/>
          <link type="\(atomNavigation)" rel="start" href="/opds/v1.2/catalog"/>
          \(page > 0 ? "<link type=\"\(atomNavigation)\" rel=\"previous\" href=\"\(path)?page=\(page - 1)\"/>" : "")
          \(page < lastPage ? "<link type=\"\(atomNavigation)\" rel=\"next\" href=\"\(path)?page=\(page + 1)\"/>" : "")
        \(entries.joined(separator: "\n"))
        </feed>
        """
    }

    /// Komga's OPDS 2 "Latest books" group feed: a `search` link templated the RFC 6570 way, and
    /// `facets` (the read status of its books).
    static let komgaOPDS2Latest = """
        {"metadata": {"title": "Latest books", "itemsPerPage": 2, "currentPage": 1},
         "links": [{"rel": "self", "href": "/opds/v2/books/latest"},
                   {"rel": "start", "href": "/opds/v2/catalog", "type": "application/opds+json"},
                   {"rel": "search", "href": "/opds/v2/search{?query}", "type": "application/opds+json", "templated": true},
                   {"rel": "next", "href": "/opds/v2/books/latest?page=1", "type": "application/opds+json"}],
         "facets": [{"metadata": {"title": "Read status"},
                     "links": [{"title": "Unread", "href": "/opds/v2/books/latest?read_status=UNREAD", "type": "application/opds+json",
                                "properties": {"numberOfItems": 7}},
                               {"title": "All", "href": "/opds/v2/books/latest", "rel": "self", "type": "application/opds+json"}]}],
         "publications": [
           {"metadata": {"identifier": "urn:komga:b1", "title": "Harbour Lights 3", "modified": "2026-01-20T08:00:00Z", "numberOfPages": 24},
            "links": [{"rel": "http://opds-spec.org/acquisition", "href": "/api/v1/books/b1/file", "type": "application/vnd.comicbook+zip"}],
            "images": [{"href": "/api/v1/books/b1/thumbnail", "type": "image/jpeg"}]},
           {"metadata": {"identifier": "urn:komga:b2", "title": "Harbour Lights 2", "modified": "2026-01-10T08:00:00Z"},
            "links": [{"rel": "http://opds-spec.org/acquisition", "href": "/api/v1/books/b2/file", "type": "application/vnd.comicbook+zip"}]}]}
        """

    // MARK: Kavita (OPDS 1.2 at /api/opds/{apiKey})

    static let kavitaKey = "4b6f2a1d-key"

    /// Kavita's root: dashboard streams ("On Deck", "Recently Added", …) then reading lists, libraries, collections.
    static var kavitaRoot: String {
        let prefix = "/api/opds/\(kavitaKey)"
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom">
              <id>root</id><title>Kavita</title><updated>2026-02-01T10:00:00Z</updated>
              <icon>/favicon.ico</icon><author><name>Kavita</name><uri>https://kavitareader.com</uri></author>
              <link rel="self" type="\(atomNavigation)" href="\(prefix)"/>
              <link rel="start" type="\(atomNavigation)" href="\(prefix)"/>
              <link rel="search" type="application/opensearchdescription+xml" href="\(prefix)/search"/>
              <entry><id>onDeck</id><title>On Deck</title><content type="text">Browse On Deck</content>
                <link rel="subsection" type="\(atomNavigation)" href="\(prefix)/on-deck"/></entry>
              <entry><id>recentlyAdded</id><title>Recently Added</title><content type="text">Browse Recently Added</content>
                <link rel="subsection" type="\(atomNavigation)" href="\(prefix)/recently-added"/></entry>
              <entry><id>allLibraries</id><title>Libraries</title><content type="text">Browse Libraries</content>
                <link rel="subsection" type="\(atomNavigation)" href="\(prefix)/libraries"/></entry>
            </feed>
            """
    }

    /// Kavita's OpenSearch description: `series?query={searchTerms}`.
    static var kavitaSearchDescription: String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
          <ShortName>Search</ShortName><LongName>Kavita</LongName><Description>Search for Series, Collections, or Reading Lists</Description>
          <Url type="application/atom+xml" template="/api/opds/\(kavitaKey)/series?query={searchTerms}"/>
        </OpenSearchDescription>
        """
    }

    /// Kavita's "Recently Added": series, each a subsection.
    static var kavitaRecentlyAdded: String {
        let prefix = "/api/opds/\(kavitaKey)"
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom">
              <id>recentlyAdded</id><title>Recently Added</title><updated>2026-02-01T10:00:00Z</updated>
              <link rel="start" type="\(atomNavigation)" href="\(prefix)"/>
              <entry><id>series-1</id><title>Harbour Lights</title><summary>A series</summary>
                <link rel="subsection" type="\(atomNavigation)" href="\(prefix)/series/1"/></entry>
              <entry><id>series-2</id><title>Tin Moon</title><summary>A series</summary>
                <link rel="subsection" type="\(atomNavigation)" href="\(prefix)/series/2"/></entry>
            </feed>
            """
    }

    /// A page of a Kavita series: its chapters with their file (`application/x-cbz`, open access) and the
    /// page-streaming link; pages go by `pageNumber` (from 1 here).
    static func kavitaSeries(page: Int, lastPage: Int, chapters: [(id: Int, title: String)]) -> String {
        let prefix = "/api/opds/\(kavitaKey)"
        let entries = chapters.map { chapter in
            """
              <entry><id>\(chapter.id)</id><title>\(chapter.title)</title><updated>2026-01-\(String(format: "%02d", 28 - chapter.id % 27))T00:00:00Z</updated>
                <summary>\(chapter.title) – 20 pages</summary>
                <link rel="http://opds-spec.org/image" type="image/jpeg" href="\(prefix)/image?libraryId=1&amp;seriesId=1&amp;chapterId=\(chapter.id)"/>
                <link rel="http://opds-spec.org/acquisition/open-access" type="application/x-cbz" title="\(chapter.title).cbz"
                      href="\(prefix)/series/1/volume/1/chapter/\(chapter.id)/download/\(chapter.title).cbz"/>
                <link xmlns:p5="http://vaemendis.net/opds-pse/ns" rel="http://vaemendis.net/opds-pse/stream" type="image/jpeg" p5:count="20"
                      href="\(prefix)/image?libraryId=1&amp;seriesId=1&amp;volumeId=1&amp;chapterId=\(chapter.id)&amp;pageNumber={pageNumber}"/></entry>
            """
        }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom">
              <id>series-1</id><title>Harbour Lights</title><updated>2026-02-01T10:00:00Z</updated>
              <link rel="self" type="\(atomAcquisition)" href="\(prefix)/series/1"/>
              <link rel="start" type="\(atomNavigation)" href="\(prefix)"/>
              <link rel="search" type="application/opensearchdescription+xml" href="\(prefix)/search"/>
              \(page > 1 ? "<link rel=\"prev\" type=\"\(atomNavigation)\" href=\"\(prefix)/series/1?pageNumber=\(page - 1)\"/>" : "")
              \(page < lastPage ? "<link rel=\"next\" type=\"\(atomNavigation)\" href=\"\(prefix)/series/1?pageNumber=\(page + 1)\"/>" : "")
            \(entries)
            </feed>
            """
    }
}

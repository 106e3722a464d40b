/// The library database's schema, as an ordered list of migrations.
///
/// Migration `n` (counting from 1) brings a database from `PRAGMA user_version` n−1 to n: its SQL, then its
/// follow-up in Swift when it has one, in one transaction. Append new steps; never edit a released one.
enum LibrarySchema {
    static let migrations: [String] = [
        """
        CREATE TABLE publications (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            title TEXT NOT NULL,
            feed_url TEXT NOT NULL UNIQUE,
            last_refresh REAL,
            last_error TEXT,
            added_at REAL NOT NULL
        );
        CREATE TABLE issues (
            id INTEGER PRIMARY KEY,
            publication_id INTEGER NOT NULL REFERENCES publications(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            title TEXT NOT NULL,
            date REAL NOT NULL,
            summary TEXT NOT NULL DEFAULT '',
            cover_url TEXT,
            content_urls TEXT NOT NULL DEFAULT '',
            expected_size INTEGER,
            expected_sha256 TEXT,
            state TEXT NOT NULL DEFAULT 'none',
            progress REAL NOT NULL DEFAULT 0,
            failure_reason TEXT,
            added_at REAL NOT NULL,
            opened_at REAL,
            UNIQUE (publication_id, name)
        );
        CREATE INDEX issues_by_publication_and_date ON issues (publication_id, date DESC);
        CREATE TABLE reading_positions (
            issue_id INTEGER PRIMARY KEY REFERENCES issues(id) ON DELETE CASCADE,
            article_index INTEGER NOT NULL,
            block_index INTEGER NOT NULL,
            updated_at REAL NOT NULL
        );
        CREATE TABLE settings (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        """,
        // 2: feeds — HTTP validators for conditional refreshes, and headlines (feed items without downloadable content).
        """
        ALTER TABLE publications ADD COLUMN etag TEXT;
        ALTER TABLE publications ADD COLUMN last_modified TEXT;
        CREATE TABLE headlines (
            id INTEGER PRIMARY KEY,
            publication_id INTEGER NOT NULL REFERENCES publications(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            title TEXT NOT NULL,
            link TEXT,
            date REAL,
            summary TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX headlines_by_publication ON headlines (publication_id, position);
        """,
        // 3: subscriptions — policies, unsubscribing while keeping issues, and NEW for issues that arrive later.
        """
        ALTER TABLE publications ADD COLUMN is_subscribed INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE publications ADD COLUMN auto_download TEXT NOT NULL DEFAULT 'none';
        ALTER TABLE publications ADD COLUMN keep_newest INTEGER;
        ALTER TABLE issues ADD COLUMN arrived_new INTEGER NOT NULL DEFAULT 0;
        """,
        // 4: the format each feed was last read as, for the subscriptions screen.
        """
        ALTER TABLE publications ADD COLUMN feed_format TEXT;
        """,
        // 5: search across issues (reader): an FTS5 index of every downloaded issue's article text, one row
        // per block, and which issues are indexed. Self-contained: only its own tables and triggers, which
        // drop an issue's rows when it is deleted or stops being available (evicted, unsubscribed).
        """
        CREATE VIRTUAL TABLE IF NOT EXISTS issue_text USING fts5(
            article_title, body, issue_id UNINDEXED, article_index UNINDEXED, block_index UNINDEXED,
            tokenize = 'unicode61 remove_diacritics 2'
        );
        CREATE TABLE IF NOT EXISTS issue_text_indexed (
            issue_id INTEGER PRIMARY KEY REFERENCES issues(id) ON DELETE CASCADE,
            indexed_at REAL NOT NULL
        );
        CREATE TRIGGER IF NOT EXISTS issue_text_after_issue_delete AFTER DELETE ON issues BEGIN
            DELETE FROM issue_text WHERE issue_id = old.id;
        END;
        CREATE TRIGGER IF NOT EXISTS issue_text_after_state_change AFTER UPDATE OF state ON issues WHEN new.state <> 'available' BEGIN
            DELETE FROM issue_text WHERE issue_id = new.id;
            DELETE FROM issue_text_indexed WHERE issue_id = new.id;
        END;
        """,
        // 6: reading positions to the line: how far into the top block the top line starts (see ReadingPosition).
        """
        ALTER TABLE reading_positions ADD COLUMN character_offset INTEGER NOT NULL DEFAULT 0;
        """,
        // 7: indexes for reading a shelf a window at a time (LibraryStore+Window), so no query the shelf or the
        // downloads screen makes reads the whole issues table.
        // - issues_in_shelf_order: shelf order exactly (the rowid the old index ended with ascends, so its
        //   ORDER BY date DESC, id DESC needed a sort); keyset pages, shelf positions and per-publication totals
        //   are ranges of it. It starts with every column of issues_by_publication_and_date, which it replaces.
        // - issues_unfinished: the few issues downloading, paused or failed, in id order (downloads screen,
        //   interrupted downloads at start). Partial: queries must repeat its WHERE word for word.
        // - issues_available, issues_new: the downloaded and NEW counts per publication, one small entry per
        //   such issue; partial like the last (their condition columns are included so the counts never read
        //   the table). On 55,000 issues they made every publication's counts faster (5–9 ms against 8–13 ms)
        //   than one covering index (publication_id, state, arrived_new, opened_at), at a third to a fifth of its size.
        // Safe to run again over its own result (IF [NOT] EXISTS), like 5.
        """
        CREATE INDEX IF NOT EXISTS issues_in_shelf_order ON issues (publication_id, date DESC, id DESC);
        DROP INDEX IF EXISTS issues_by_publication_and_date;
        CREATE INDEX IF NOT EXISTS issues_unfinished ON issues (id) WHERE state IN ('downloading', 'paused', 'failed');
        CREATE INDEX IF NOT EXISTS issues_available ON issues (publication_id, state) WHERE state = 'available';
        CREATE INDEX IF NOT EXISTS issues_new ON issues (publication_id, arrived_new, opened_at) WHERE arrived_new = 1 AND opened_at IS NULL;
        """,
        // 8: each publication's counts (issues, downloaded, NEW) kept as issues change, so the interface reads
        // 1,000 publications' counts as 1,000 small rows at start instead of counting 50,000 index entries.
        // Triggers keep them: an issue inserted, deleted, or changing state, NEW-ness or publication. An upsert
        // that only refreshes an issue's metadata changes no counted column and fires none.
        """
        CREATE TABLE IF NOT EXISTS issue_counts (
            publication_id INTEGER PRIMARY KEY REFERENCES publications(id) ON DELETE CASCADE,
            total INTEGER NOT NULL DEFAULT 0,
            downloaded INTEGER NOT NULL DEFAULT 0,
            new INTEGER NOT NULL DEFAULT 0
        );
        DELETE FROM issue_counts;
        INSERT INTO issue_counts (publication_id, total, downloaded, new)
            SELECT publication_id, count(*), sum(state = 'available'), sum(arrived_new = 1 AND opened_at IS NULL) FROM issues GROUP BY publication_id;
        CREATE TRIGGER IF NOT EXISTS issue_counts_after_insert AFTER INSERT ON issues BEGIN
            INSERT INTO issue_counts (publication_id) VALUES (new.publication_id) ON CONFLICT DO NOTHING;
            UPDATE issue_counts SET total = total + 1, downloaded = downloaded + (new.state = 'available'),
                new = new + (new.arrived_new = 1 AND new.opened_at IS NULL) WHERE publication_id = new.publication_id;
        END;
        CREATE TRIGGER IF NOT EXISTS issue_counts_after_delete AFTER DELETE ON issues BEGIN
            UPDATE issue_counts SET total = total - 1, downloaded = downloaded - (old.state = 'available'),
                new = new - (old.arrived_new = 1 AND old.opened_at IS NULL) WHERE publication_id = old.publication_id;
        END;
        CREATE TRIGGER IF NOT EXISTS issue_counts_after_update AFTER UPDATE OF state, arrived_new, opened_at, publication_id ON issues BEGIN
            UPDATE issue_counts SET total = total - 1, downloaded = downloaded - (old.state = 'available'),
                new = new - (old.arrived_new = 1 AND old.opened_at IS NULL) WHERE publication_id = old.publication_id;
            INSERT INTO issue_counts (publication_id) VALUES (new.publication_id) ON CONFLICT DO NOTHING;
            UPDATE issue_counts SET total = total + 1, downloaded = downloaded + (new.state = 'available'),
                new = new + (new.arrived_new = 1 AND new.opened_at IS NULL) WHERE publication_id = new.publication_id;
        END;
        """,
        // 9: handles — the name people see and type for an issue (`IssueHandle`), unique within its publication; the
        // catalog's id (`name`) stays the key. Filled for the issues already there by the follow-up below, and set by
        // `upsertIssues` when an issue is inserted, never when it is updated. The index's first column is the handle,
        // so a command line's bare `HANDLE` is found without reading the table; `ON CONFLICT (publication_id, handle)`
        // names it too.
        """
        ALTER TABLE issues ADD COLUMN handle TEXT;
        CREATE UNIQUE INDEX IF NOT EXISTS issues_by_handle ON issues (handle, publication_id);
        """,
        // 10: headlines that carry a file which is not an issue (a podcast's audio, a video), for a player.
        """
        ALTER TABLE headlines ADD COLUMN media_url TEXT;
        ALTER TABLE headlines ADD COLUMN media_kind TEXT;
        """,
        // 11: a headline's text as HTML (its content, else its summary), read as an article.
        """
        ALTER TABLE headlines ADD COLUMN body TEXT NOT NULL DEFAULT '';
        """,
        // 12: search in headlines like in issues: an FTS5 index of each headline's title and text (body's text,
        // else summary), kept by replaceHeadlines; a publication's rows go with it. Safe to run again.
        """
        CREATE VIRTUAL TABLE IF NOT EXISTS headline_text USING fts5(
            title, body, publication_id UNINDEXED, position UNINDEXED,
            tokenize = 'unicode61 remove_diacritics 2'
        );
        DELETE FROM headline_text;
        INSERT INTO headline_text (title, body, publication_id, position) SELECT title, summary, publication_id, position FROM headlines;
        CREATE TRIGGER IF NOT EXISTS headline_text_after_publication_delete AFTER DELETE ON publications BEGIN
            DELETE FROM headline_text WHERE publication_id = old.id;
        END;
        """,
        // 13: a subscription to a catalog root keeps the root and the title of the feed chosen from it.
        """
        ALTER TABLE publications ADD COLUMN catalog_root_url TEXT;
        ALTER TABLE publications ADD COLUMN catalog_feed_title TEXT;
        """,
        // 14: bookmarks, and highlights with their notes (LibraryStore+Marks), kept by the issue's id: they stay when only
        // the issue's file goes (to be fetched again) and go with the issue's entry. Positions as in reading_positions;
        // a highlight keeps its passage's text and a little either side to be found again in a changed issue.
        """
        CREATE TABLE IF NOT EXISTS bookmarks (
            id INTEGER PRIMARY KEY,
            issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
            article_index INTEGER NOT NULL,
            block_index INTEGER NOT NULL,
            character_offset INTEGER NOT NULL,
            name TEXT NOT NULL,
            created_at REAL NOT NULL
        );
        CREATE INDEX IF NOT EXISTS bookmarks_by_issue ON bookmarks (issue_id);
        CREATE TABLE IF NOT EXISTS highlights (
            id INTEGER PRIMARY KEY,
            issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
            article_index INTEGER NOT NULL,
            start_block INTEGER NOT NULL,
            start_offset INTEGER NOT NULL,
            end_block INTEGER NOT NULL,
            end_offset INTEGER NOT NULL,
            article_title TEXT NOT NULL DEFAULT '',
            passage TEXT NOT NULL,
            before_text TEXT NOT NULL DEFAULT '',
            after_text TEXT NOT NULL DEFAULT '',
            note TEXT NOT NULL DEFAULT '',
            is_lost INTEGER NOT NULL DEFAULT 0,
            created_at REAL NOT NULL
        );
        CREATE INDEX IF NOT EXISTS highlights_by_issue ON highlights (issue_id);
        """,
        // 15: the shelf's other views (`ShelfView`), each a range of an index so they page by key like the shelf's own:
        // - issues_by_title: sorted by title (ignoring case), then id; with a filter, the filter is checked along it.
        // - issues_available_by_date, issues_new_by_date, issues_unread_by_date: one filter each, in date order (read
        //   either way for newest or oldest first); partial, so queries repeat their WHERE word for word. Downloaded
        //   and NEW issues are few; unread ones are most of a library, so that index is nearly the size of the shelf's.
        //   Each ends with its condition's columns, so counts over it never read the table (as issues_new in 7).
        """
        CREATE INDEX IF NOT EXISTS issues_by_title ON issues (publication_id, title COLLATE NOCASE, id);
        CREATE INDEX IF NOT EXISTS issues_available_by_date ON issues (publication_id, date, id, state) WHERE state = 'available';
        CREATE INDEX IF NOT EXISTS issues_new_by_date ON issues (publication_id, date, id, arrived_new, opened_at) WHERE arrived_new = 1 AND opened_at IS NULL;
        CREATE INDEX IF NOT EXISTS issues_unread_by_date ON issues (publication_id, date, id, opened_at) WHERE opened_at IS NULL;
        """,
        // 16: progress sync (kosync, KOReader's): each issue's file as downloaded — KOReader's partial MD5 of it and its
        // name — taken when it is installed (the archive is not kept), and each issue's latest position not yet sent
        // to the server (sent later when the server could not take it), and the last place the server took from us (so
        // an unchanged sync compares strings instead of reading the issue again).
        // Safe to run again: the tables IF NOT EXISTS, the two columns added by the follow-up only when missing.
        """
        CREATE TABLE IF NOT EXISTS progress_sync_outbox (
            issue_id INTEGER PRIMARY KEY REFERENCES issues(id) ON DELETE CASCADE,
            document TEXT NOT NULL,
            progress TEXT NOT NULL,
            percentage REAL NOT NULL,
            article_title TEXT NOT NULL DEFAULT '',
            queued_at REAL NOT NULL,
            article_index INTEGER,
            block_index INTEGER,
            character_offset INTEGER
        );
        CREATE TABLE IF NOT EXISTS progress_sync_sent (
            issue_id INTEGER PRIMARY KEY REFERENCES issues(id) ON DELETE CASCADE,
            document TEXT NOT NULL,
            progress TEXT NOT NULL,
            article_index INTEGER NOT NULL,
            block_index INTEGER NOT NULL,
            character_offset INTEGER NOT NULL
        );
        """,
        // 17: accounts on feed servers (Accounts/): the server and user (never a password: the session is in the credential
        // store), how far the last sync got (the newest item's crawl time, for `ot`) and how it went. A publication may come
        // from an account (`account_id`, and the server's id of the feed, `account_stream`); removing the account leaves its
        // publications as feeds of one's own (`removeAccount` clears the link: no foreign key, so the column can be dropped). `account_marks` queues read/unread/star changes made here until the server has them;
        // `is_starred`: starred (here or on the server), never evicted.
        """
        CREATE TABLE IF NOT EXISTS accounts (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            url TEXT NOT NULL UNIQUE,
            user TEXT NOT NULL,
            added_at REAL NOT NULL,
            last_sync REAL,
            last_error TEXT,
            synced_to_usec INTEGER
        );
        ALTER TABLE publications ADD COLUMN account_id INTEGER;
        ALTER TABLE publications ADD COLUMN account_stream TEXT;
        ALTER TABLE issues ADD COLUMN is_starred INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE IF NOT EXISTS account_marks (
            account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
            item_id INTEGER NOT NULL,
            state TEXT NOT NULL,
            adding INTEGER NOT NULL,
            queued_at REAL NOT NULL,
            PRIMARY KEY (account_id, item_id, state)
        );
        """,
        // 18: whole articles (Reading/): a headline's linked page, its article extracted, kept by the publication and the
        // headline's link (headlines are replaced at each refresh; `replaceHeadlines` removes the articles whose link left
        // the feed, and the index's text of a headline takes its article's in). `readerable` 0: the page had no article
        // (remembered so it is not fetched again by itself). `blocks`: the reader's blocks as JSON (`TextBlockJSON`).
        // The feed's own `full-text` setting (never, ask, always; NULL: the config's) is a column added by the follow-up.
        // Safe to run again, like 16.
        """
        CREATE TABLE IF NOT EXISTS headline_articles (
            publication_id INTEGER NOT NULL REFERENCES publications(id) ON DELETE CASCADE,
            link TEXT NOT NULL,
            readerable INTEGER NOT NULL,
            title TEXT,
            byline TEXT,
            excerpt TEXT,
            published TEXT,
            site_name TEXT,
            lang TEXT,
            dir TEXT,
            lead_image TEXT,
            blocks TEXT NOT NULL DEFAULT '[]',
            text TEXT NOT NULL DEFAULT '',
            fetched_at REAL NOT NULL,
            PRIMARY KEY (publication_id, link)
        );
        """,
        // 19: headlines' read and starred states (LibraryStore+HeadlineStates), kept beside the headlines, which every
        // refresh replaces: by publication and the headline's key (its link, else its title and date: `HeadlineKey`), with
        // the server's item id for a headline from an account (its marks queue in account_marks like issues'). NEW: it
        // arrived after the publication's first fill and is unread. Self-contained and safe to run again.
        """
        CREATE TABLE IF NOT EXISTS headline_states (
            publication_id INTEGER NOT NULL REFERENCES publications(id) ON DELETE CASCADE,
            key TEXT NOT NULL,
            item_id INTEGER,
            read_at REAL,
            is_starred INTEGER NOT NULL DEFAULT 0,
            arrived_new INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (publication_id, key)
        );
        CREATE INDEX IF NOT EXISTS headline_states_by_item ON headline_states (item_id) WHERE item_id IS NOT NULL;
        """,
        // 20: what an account's last full check of read states saw (AccountSync): when it was, a digest of the server's
        // unread counts then and one of the unread list it applied, and one of the starred list applied; an unchanged sync
        // compares the counts and skips the unread list. Columns added by the follow-up (safe to run again).
        "SELECT 1;",
        // 21: publications in the order they were added, read from an index rather than sorted on every read (the
        // shelf's overview reads them all at start-up: with a thousand, sorting them was a third of the read).
        "CREATE INDEX IF NOT EXISTS publications_in_added_order ON publications (added_at, id);",
    ]

    /// Work in Swift that follows a migration's SQL (values SQL cannot compute), by migration number.
    static let followUps: [Int: @Sendable (SQLiteDatabase) throws -> Void] = [
        9: IssueHandleBackfill.run,
        16: { database in
            let columns = Set(try database.query("PRAGMA table_info(issues)").compactMap { $0.count > 1 ? $0[1].string : nil })
            for column in ["download_partial_md5", "download_file_name"] where !columns.contains(column) {
                try database.execute("ALTER TABLE issues ADD COLUMN \(column) TEXT")
            }
        },
        18: { database in
            let columns = Set(try database.query("PRAGMA table_info(publications)").compactMap { $0.count > 1 ? $0[1].string : nil })
            if !columns.contains("full_text") { try database.execute("ALTER TABLE publications ADD COLUMN full_text TEXT") }
        },
        20: { database in
            let columns = Set(try database.query("PRAGMA table_info(accounts)").compactMap { $0.count > 1 ? $0[1].string : nil })
            for (column, type) in [("full_check_at", "REAL"), ("unread_counts_digest", "TEXT"), ("unread_list_digest", "TEXT"), ("starred_list_digest", "TEXT")]
            where !columns.contains(column) {
                try database.execute("ALTER TABLE accounts ADD COLUMN \(column) \(type)")
            }
        },
    ]

    static var currentVersion: Int { migrations.count }
}

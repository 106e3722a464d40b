import Foundation
import XCTest
@testable import NewsstandCore

/// What lets an unchanged account sync skip the server's unread list (migration 20, `AccountSync`): the digests of
/// the unread counts and of the unread list, and the record of the last full check.
final class AccountReadCheckTests: XCTestCase {
    func testTheCountsDigestFollowsEveryCountAndNewestItemButNotTheirOrder() throws {
        let counts = [ServerUnreadCount(streamID: "feed/1", count: 3, newestMicroseconds: 10),
                      ServerUnreadCount(streamID: "feed/2", count: 0, newestMicroseconds: 20)]
        let digest = try XCTUnwrap(AccountSync.digest(ofCounts: counts))
        XCTAssertEqual(AccountSync.digest(ofCounts: counts.reversed()), digest)
        var oneRead = counts
        oneRead[0].count = 2
        XCTAssertNotEqual(AccountSync.digest(ofCounts: oneRead), digest)
        var newer = counts
        newer[1].newestMicroseconds = 21
        XCTAssertNotEqual(AccountSync.digest(ofCounts: newer), digest)
        XCTAssertNil(AccountSync.digest(ofCounts: nil), "no counts: never skipped")
    }

    func testTheListDigestIsTheSameForTheSameIDsInAnyOrder() throws {
        let ids: Set<ServerItemID> = [ServerItemID(5), ServerItemID(1_795_691_087_253_642), ServerItemID(7)]
        let digest = try XCTUnwrap(AccountSync.digest(ofIDs: ids))
        XCTAssertEqual(AccountSync.digest(ofIDs: Set(ids.reversed())), digest)
        XCTAssertNotEqual(AccountSync.digest(ofIDs: ids.subtracting([ServerItemID(5)])), digest)
    }

    func testALibraryFromBeforeGetsTheColumnsAndTheCheckIsKeptAndForgottenForAnotherUser() throws {
        let (store, paths) = try TestSupport.store(for: self)
        let url = URL(string: "https://news.example/api/greader.php")!
        let account = try store.addAccount(kind: .googleReader, url: url, user: "reader")
        store.close()
        // A library of schema 19: the accounts without the columns.
        let database = try SQLiteDatabase(path: paths.databaseFile.path)
        for column in ["full_check_at", "unread_counts_digest", "unread_list_digest", "starred_list_digest"] {
            try database.execute("ALTER TABLE accounts DROP COLUMN \(column)")
        }
        try database.execute("PRAGMA user_version = 19")
        database.close()
        let upgraded = try LibraryStore(file: paths.databaseFile)
        defer { upgraded.close() }
        XCTAssertEqual(try upgraded.readCheck(accountID: account.id), .init())
        let check = LibraryStore.AccountReadCheck(at: Date(timeIntervalSince1970: 1_800_000_000), countsDigest: "c", listDigest: "l", starredDigest: "s")
        try upgraded.recordReadCheck(accountID: account.id, check)
        XCTAssertEqual(try upgraded.readCheck(accountID: account.id), check)
        // Its follow-up again changes nothing.
        try LibrarySchema.followUps[20]?(upgraded.database)
        XCTAssertEqual(try upgraded.readCheck(accountID: account.id), check)
        // Another user's items are not this one's: the next sync reads the whole list.
        try upgraded.addAccount(kind: .googleReader, url: url, user: "someone")
        XCTAssertEqual(try upgraded.readCheck(accountID: account.id), .init())
    }
}

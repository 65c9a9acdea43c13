import Foundation

// Query generations on the SQLite store: a generation is a connection of its own holding a
// read transaction open. In WAL journal mode SQLite keeps showing that transaction the database
// as it was when the transaction's first read ran, while other connections — this store's own,
// other coordinators', other processes' — commit; checkpoints stop short of the frames the
// reader still needs, so the WAL grows while a generation is held (as with Apple's store). In a
// rollback-journal mode an open read transaction would block every writer, so generations are
// refused there.
extension SQLiteStore: QueryGenerationStore {
    var queryGenerationUnavailableReason: String? {
        if isInMemory { return "the store at /dev/null is one in-memory database, with no other connection to read an older state through." }
        lock.lock(); defer { lock.unlock() }
        guard let connection else { return "the store at \(url?.path ?? "?") was removed from its coordinator." }
        let mode = ((try? connection.query("PRAGMA journal_mode") { $0.text(at: 0) ?? "" })?.first ?? nil) ?? "?"
        return mode.lowercased() == "wal" ? nil : "the store at \(url?.path ?? "?") uses journal_mode \(mode). Remove the journal_mode pragma from NSSQLitePragmasOption to use WAL, the default."
    }

    func beginReadGeneration() throws -> any StoreReadGeneration {
        guard let path = url?.path else { throw CoreDataError.make(NSPersistentStoreOperationError, "The SQLite store has no file.") }
        do {
            return try SQLiteReadGeneration(path: path, timeout: Self.timeout(from: options))
        } catch let error as SQLiteError {
            throw fetchError(error)
        }
    }

    /// The connection a read uses: the generation's when a pinned context is reading (its
    /// token holds one for this store), else the store's own.
    func readConnection() throws -> SQLiteConnection {
        if let token = QueryGenerationScope.token, let generation = token.generation(for: self) as? SQLiteReadGeneration {
            return generation.connection
        }
        return try openConnection()
    }
}

/// One generation of a SQLite store: a read-only connection inside a read transaction, begun
/// with a read so that SQLite fixes its snapshot now. Used only under the store's lock; closed
/// (the transaction ended) when the last token holding it goes.
final class SQLiteReadGeneration: StoreReadGeneration, @unchecked Sendable {
    // @unchecked Sendable: `connection` is used only under the store's lock, and deinit runs
    // when nothing else can reach it.
    let connection: SQLiteConnection

    init(path: String, timeout: Double) throws {
        connection = try SQLiteConnection(path: path, readOnly: true)
        connection.setBusyTimeout(timeout)
        try connection.execute("BEGIN")
        _ = try connection.query("SELECT COUNT(*) FROM sqlite_master") { $0.int64(at: 0) }
    }

    deinit {
        try? connection.execute("ROLLBACK")
        connection.close()
    }
}

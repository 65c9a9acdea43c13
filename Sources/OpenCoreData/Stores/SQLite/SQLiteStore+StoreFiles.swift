import CSQLite
import Foundation

/// Copying a SQLite store over another with SQLite's online backup, moving an added store to
/// another file (`setURL(_:for:)`), and destroying a store no other connection is writing.
extension SQLiteStore: RelocatableStore {
    /// Copies the store at `source` into `destination` page by page (`sqlite3_backup`): the
    /// source is read in one consistent state, WAL included, even while it is open elsewhere,
    /// and the destination is written in one transaction, so a failure leaves it as it was.
    /// The external binary values are copied first, under new files only, so the destination
    /// never references a file that is not there; files only the old destination used go after.
    static func backUp(_ source: URL, into destination: URL) throws {
        let path = destination.path
        func failure(_ reason: String, _ underlying: Error? = nil) -> NSError {
            var info: [String: Any] = [NSFilePathErrorKey: path]
            if let underlying { info[NSUnderlyingErrorKey] = underlying as NSError }
            return CoreDataError.make(NSPersistentStoreOperationError, "Can't replace the store at \(path) with the one at \(source.path): \(reason). The destination was left unchanged.", info)
        }
        // The source must be a store: copying any SQLite file over a store would make it unopenable.
        try refuseDevNull(destination, "has no file to replace")
        _ = try metadataForPersistentStore(with: source)
        try? FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        let sourceFiles = SQLiteExternalData.directory(forStoreAt: source)
        let destinationFiles = SQLiteExternalData.directory(forStoreAt: destination)
        let filesBefore = SQLiteExternalData.fileNames(in: destinationFiles)
        var copiedFiles: [URL] = []
        do {
            let names = SQLiteExternalData.fileNames(in: sourceFiles)
            if !names.isEmpty { try FileManager.default.createDirectory(at: destinationFiles, withIntermediateDirectories: true) }
            for name in names.subtracting(filesBefore) {
                let target = destinationFiles.appendingPathComponent(name)
                try FileManager.default.copyItem(at: sourceFiles.appendingPathComponent(name), to: target)
                copiedFiles.append(target)
            }
            let from = try SQLiteConnection(path: source.path, readOnly: true)
            defer { from.close() }
            let to = try SQLiteConnection(path: path, readOnly: false)
            defer { to.close() }
            to.setBusyTimeout(5)
            guard let backup = sqlite3_backup_init(to.handle, "main", from.handle, "main") else {
                throw failure(String(cString: sqlite3_errmsg(to.handle)))
            }
            var step = SQLITE_OK
            repeat {
                step = sqlite3_backup_step(backup, -1)
                if step == SQLITE_BUSY || step == SQLITE_LOCKED { usleep(10_000) }
            } while step == SQLITE_OK || step == SQLITE_BUSY || step == SQLITE_LOCKED
            let finished = sqlite3_backup_finish(backup)
            guard step == SQLITE_DONE, finished == SQLITE_OK else {
                throw failure("SQLite's backup stopped with \(String(cString: sqlite3_errstr(step == SQLITE_DONE ? finished : step)))")
            }
        } catch {
            for file in copiedFiles { try? FileManager.default.removeItem(at: file) }
            let nsError = error as NSError
            if nsError.domain == NSCocoaErrorDomain { throw error }
            throw failure(nsError.localizedDescription, error)
        }
        let referenced = (try? SQLiteExternalData.referencedNames(inStoreAt: path)) ?? filesBefore
        for name in filesBefore.subtracting(referenced) { try? FileManager.default.removeItem(at: destinationFiles.appendingPathComponent(name)) }
    }

    /// Closes the current file and opens the store at `url` in its place, when that file holds
    /// the same store (same UUID) for the same model; otherwise reopens the current file.
    func relocate(to newURL: URL) -> Bool {
        guard let oldURL = url, newURL.isFileURL, FileManager.default.fileExists(atPath: newURL.path),
              let theirs = try? Self.metadataForPersistentStore(with: newURL),
              theirs[NSStoreUUIDKey] as? String == metadata[NSStoreUUIDKey] as? String else { return false }
        lock.lock()
        connection?.close()
        connection = nil
        url = newURL
        lock.unlock()
        do {
            try loadMetadata()
            // Notifications follow the store to its new file.
            if let coordinator = persistentStoreCoordinator, postsRemoteChangeNotifications {
                stopRemoteChangeObserver()
                startRemoteChangeObserver(for: coordinator)
            }
            return true
        } catch {
            lock.lock(); url = oldURL; lock.unlock()
            // The old file opened a moment ago; if it no longer does, the store stays closed
            // and says so on its next use.
            try? loadMetadata()
            return false
        }
    }

    /// Refuses while another connection is writing the store (its files would vanish under a
    /// transaction in progress), unless `NSPersistentStoreForceDestroyOption` is true.
    static func destroyUnlessBeingWritten(at url: URL, options: [AnyHashable: Any]?) throws {
        if !isOptionOn(NSPersistentStoreForceDestroyOption, in: options) && isBeingWritten(at: url) {
            throw CoreDataError.make(NSPersistentStoreOperationError, "The store at \(url.path) is being written by another connection (a coordinator or process with a transaction open), so it was not destroyed. Close that connection first, or pass NSPersistentStoreForceDestroyOption: true to destroy it anyway.", [NSFilePathErrorKey: url.path])
        }
        try destroyPersistentStore(at: url)
    }

    /// Whether another connection holds a write lock on the store at `url`: `BEGIN IMMEDIATE`
    /// fails with `SQLITE_BUSY` (after a short wait) when one does.
    static func isBeingWritten(at url: URL) -> Bool {
        guard !isDevNull(url), FileManager.default.fileExists(atPath: url.path), let db = try? SQLiteConnection(path: url.path, readOnly: false) else { return false }
        defer { db.close() }
        db.setBusyTimeout(0.2)
        do {
            try db.execute("BEGIN IMMEDIATE")
            try? db.execute("ROLLBACK")
            return false
        } catch let error as SQLiteError {
            // Only a lock says someone writes; a file that is not a database can be destroyed.
            return error.code == SQLITE_BUSY || error.code == SQLITE_LOCKED
        } catch {
            return false
        }
    }
}

import OpenCoreData
import OpenCoreDataTestSupport
import TortureKit
import XCTest

/// Remote-change notifications (Core Data's "Consuming Relevant Store Changes"): a store added
/// with `NSPersistentStoreRemoteChangeNotificationPostOptionKey` posts
/// `.NSPersistentStoreRemoteChange` for every write to its file — by its own coordinator, by
/// another coordinator, by another process — with the store's UUID, URL and, when it keeps
/// history, the token of its last transaction; the app catches up through history after the
/// token it processed last and merges into its contexts.
final class RemoteChangeNotificationTests: XCTestCase {
    private var directory: URL!
    private let model = CompanyModel.make()
    private let options: [AnyHashable: Any] = [NSPersistentHistoryTrackingKey: true, NSPersistentStoreRemoteChangeNotificationPostOptionKey: true]

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("ocd-remote-change")
    }

    private func coordinator(options: [AnyHashable: Any]?, file: String = "Remote.sqlite") throws -> NSPersistentStoreCoordinator {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: directory.appendingPathComponent(file), options: options)
        return coordinator
    }

    private func saveEmployee(_ name: String, through coordinator: NSPersistentStoreCoordinator) throws {
        let context = newContext(coordinator)
        try context.performAndWait {
            let employee = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
            employee.setValue(name, forKey: "firstName")
            try context.save()
        }
    }

    func testAnotherCoordinatorsSaveIsPostedWithTheStoresUUIDURLAndToken() throws {
        let watching = try coordinator(options: options)
        let writing = try coordinator(options: [NSPersistentHistoryTrackingKey: true])
        let received = NotificationRecorder(.NSPersistentStoreRemoteChange, object: watching)
        try saveEmployee("Ann", through: writing)
        let written = writing.currentPersistentHistoryToken(fromStores: nil)
        // Earlier writes (the other coordinator opening the file) may be posted first.
        var note: Notification?
        while let next = received.waitForNotification(timeout: 2) {
            if next.userInfo?[NSPersistentHistoryTokenKey] as? NSPersistentHistoryToken == written { note = next; break }
        }
        let posted = try XCTUnwrap(note, "no notification with the token of the transaction just written within 2 s")
        let store = try XCTUnwrap(watching.persistentStores.first)
        XCTAssertTrue(posted.object as AnyObject === watching, "the object is the watching coordinator")
        XCTAssertEqual(posted.userInfo?[NSStoreUUIDKey] as? String, store.identifier)
        XCTAssertEqual((posted.userInfo?[NSPersistentStoreURLKey] as? URL)?.standardizedFileURL, store.url?.standardizedFileURL)
    }

    func testACoordinatorsOwnSavesArePostedToo() throws {
        let coordinator = try coordinator(options: options)
        let received = NotificationRecorder(.NSPersistentStoreRemoteChange, object: coordinator)
        try saveEmployee("Ann", through: coordinator)
        XCTAssertNotNil(received.waitForNotification(timeout: 2), "Apple's option posts for every write to the store")
    }

    func testWithoutHistoryTheNotificationHasNoToken() throws {
        let coordinator = try coordinator(options: [NSPersistentStoreRemoteChangeNotificationPostOptionKey: true])
        let received = NotificationRecorder(.NSPersistentStoreRemoteChange, object: coordinator)
        try saveEmployee("Ann", through: coordinator)
        let note = try XCTUnwrap(received.waitForNotification(timeout: 2))
        XCTAssertNil(note.userInfo?[NSPersistentHistoryTokenKey])
        XCTAssertNotNil(note.userInfo?[NSStoreUUIDKey])
    }

    func testNothingIsPostedWithoutTheOptionOrAfterTheStoreIsRemoved() throws {
        let plain = try coordinator(options: [NSPersistentHistoryTrackingKey: true])
        let watching = try coordinator(options: options)
        let quiet = NotificationRecorder(.NSPersistentStoreRemoteChange, object: plain)
        let removed = NotificationRecorder(.NSPersistentStoreRemoteChange, object: watching)
        try watching.remove(try XCTUnwrap(watching.persistentStores.first))
        try saveEmployee("Ann", through: plain)
        XCTAssertNil(quiet.waitForNotification(timeout: 0.4), "no option, no notification")
        XCTAssertNil(removed.waitForNotification(timeout: 0.1), "a removed store posts nothing")
    }

    /// The notification arrives on the store's observer queue; removing the store there (an app
    /// closing a store another process changed) must not wait for that same queue.
    func testAnObserverCanRemoveTheStoreWhenNotified() throws {
        let watching = try coordinator(options: options)
        let removed = expectation(description: "the store removed from the notification's observer")
        let observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: watching, queue: nil) { _ in
            if let store = watching.persistentStores.first, (try? watching.remove(store)) != nil { removed.fulfill() }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try saveEmployee("Ann", through: try coordinator(options: [NSPersistentHistoryTrackingKey: true]))
        wait(for: [removed], timeout: 5)
        XCTAssertTrue(watching.persistentStores.isEmpty)
    }

    /// Removing the store on one thread while a notification's observer, on the store's
    /// observer queue, waits for the coordinator: neither waits for the other.
    func testRemovingTheStoreWhileAnObserverUsesTheCoordinatorDoesNotDeadlock() throws {
        let watching = try coordinator(options: options)
        let inObserver = DispatchSemaphore(value: 0)
        let observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: watching, queue: nil) { _ in
            inObserver.signal()
            Thread.sleep(forTimeInterval: 0.2)   // the removal takes the coordinator meanwhile
            _ = watching.persistentStores
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try saveEmployee("Ann", through: try coordinator(options: [NSPersistentHistoryTrackingKey: true]))
        XCTAssertEqual(inObserver.wait(timeout: .now() + 5), .success, "notified of the other coordinator's save")
        let removed = DispatchSemaphore(value: 0)
        let store = try XCTUnwrap(watching.persistentStores.first)
        DispatchQueue.global().async {
            try? watching.remove(store)
            removed.signal()
        }
        XCTAssertEqual(removed.wait(timeout: .now() + 5), .success, "remove(_:) returned while the observer used the coordinator")
    }

    /// `setURL(_:for:)` moves the store to a copy of its file; the notifications follow it: a
    /// write to the new file is posted (with the new URL), a write to the old one is not.
    func testAfterSetURLTheNewFileIsWatched() throws {
        let watching = try coordinator(options: options)
        let store = try XCTUnwrap(watching.persistentStores.first)
        try saveEmployee("Ann", through: watching)
        let copy = directory.appendingPathComponent("Moved.sqlite")
        let copying = NSPersistentStoreCoordinator(managedObjectModel: model)
        try copying.replacePersistentStore(at: copy, destinationOptions: nil, withPersistentStoreFrom: try XCTUnwrap(store.url),
                                           sourceOptions: nil, type: .sqlite)
        XCTAssertTrue(watching.setURL(copy, for: store))
        let received = NotificationRecorder(.NSPersistentStoreRemoteChange, object: watching)
        _ = received.waitForNotification(timeout: 0.3)   // the move itself, if noticed
        received.reset()
        try saveEmployee("Bob", through: try coordinator(options: [NSPersistentHistoryTrackingKey: true]))
        XCTAssertNil(received.waitForNotification(timeout: 0.4), "a write to the old file is not this store's")
        try saveEmployee("Cy", through: try coordinator(options: [NSPersistentHistoryTrackingKey: true], file: "Moved.sqlite"))
        let note = try XCTUnwrap(received.waitForNotification(timeout: 2), "a write to the file the store moved to")
        XCTAssertEqual((note.userInfo?[NSPersistentStoreURLKey] as? URL)?.standardizedFileURL, copy.standardizedFileURL)
    }

    func testReadingTheStorePostsNothing() throws {
        let watching = try coordinator(options: options)
        try saveEmployee("Ann", through: watching)
        let received = NotificationRecorder(.NSPersistentStoreRemoteChange, object: watching)
        _ = received.waitForNotification(timeout: 0.3)  // the save's own notification
        received.reset()
        let reader = try coordinator(options: nil)
        let context = newContext(reader)
        try context.performAndWait { XCTAssertEqual(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Employee")), 1) }
        XCTAssertNil(received.waitForNotification(timeout: 0.4))
    }

    /// The two-process test: `ocd-torture remote-writer` saves five times, 100 ms apart;
    /// each save is noticed here within 250 ms, read from history after the last token
    /// processed, and merged into a main-queue context, whose registered object shows the rename.
    func testAWriteInAnotherProcessIsNoticedWithin250msAndMergesThroughHistory() throws {
        let url = directory.appendingPathComponent("TwoProcesses.sqlite")
        let (coordinator, background) = try TortureModel.open(url, extraOptions: options)
        let seedID: NSManagedObjectID = try background.performAndWait {
            let department = NSEntityDescription.insertNewObject(forEntityName: "Department", into: background)
            department.setValue("seed", forKey: "name")
            department.setValue(0, forKey: "save")
            try background.save()
            return department.objectID
        }
        let view = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        view.persistentStoreCoordinator = coordinator
        let seed = view.performAndWait { view.object(with: seedID) }
        XCTAssertEqual(view.performAndWait { seed.value(forKey: "name") as? String }, "seed")

        let saves = 5
        let merger = HistoryMerger(background: background, view: view, token: coordinator.currentPersistentHistoryToken(fromStores: nil))
        let allNoticed = expectation(description: "every save noticed")
        allNoticed.assertForOverFulfill = false
        let observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: coordinator, queue: nil) { _ in
            if merger.catchUp(at: Date().timeIntervalSince1970) >= saves { allNoticed.fulfill() }
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        let writer = Process()
        writer.executableURL = try builtExecutable("ocd-torture")
        writer.arguments = ["remote-writer", url.path, "\(saves)"]
        let pipe = Pipe()
        writer.standardOutput = pipe
        try writer.run()
        wait(for: [allNoticed], timeout: 10)  // runs the main queue, where `view` merges
        writer.waitUntilExit()
        XCTAssertEqual(writer.terminationStatus, 0)
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)

        var committed: [Int: Double] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 3, fields[0] == "saved", let n = Int(fields[1]), let t = Double(fields[2]) { committed[n] = t }
        }
        XCTAssertEqual(committed.count, saves, output)
        let noticed = merger.noticed
        for n in 1...saves {
            let commit = try XCTUnwrap(committed[n]), arrival = try XCTUnwrap(noticed[n], "save \(n) never seen in history")
            XCTAssertLessThanOrEqual(arrival - commit, 0.25, "save \(n) noticed \(Int((arrival - commit) * 1000)) ms after its commit")
        }
        XCTAssertEqual(view.performAndWait { seed.value(forKey: "name") as? String }, "renamed", "the merge refreshed the view context's object")
        let request = NSFetchRequest<NSManagedObject>(entityName: "Department")
        XCTAssertEqual(try view.performAndWait { try view.count(for: request) }, saves + 1)
    }
}

/// Collects the notifications of one name and object.
private final class NotificationRecorder: @unchecked Sendable {
    // @unchecked Sendable: `notes` is guarded by `condition`.
    private let condition = NSCondition()
    private var notes: [Notification] = []
    private var observer: NSObjectProtocol?

    init(_ name: Notification.Name, object: AnyObject) {
        observer = NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { [weak self] note in
            guard let self else { return }
            self.condition.lock()
            self.notes.append(note)
            self.condition.broadcast()
            self.condition.unlock()
        }
    }

    deinit { observer.map(NotificationCenter.default.removeObserver) }

    /// The first notification not yet taken, waiting up to `timeout` seconds for one.
    func waitForNotification(timeout: Double) -> Notification? {
        condition.lock(); defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while notes.isEmpty, condition.wait(until: deadline) {}
        return notes.isEmpty ? nil : notes.removeFirst()
    }

    func reset() {
        condition.lock(); notes.removeAll(); condition.unlock()
    }
}

/// Apple's recipe for remote changes: fetch the history after the last token processed, merge
/// its object IDs into the view context, keep the new token. Records when each department's save
/// number was first seen.
private final class HistoryMerger: @unchecked Sendable {
    // @unchecked Sendable: `token` and `seen` are guarded by `lock`; the contexts are used on
    // their queues.
    private let lock = NSLock()
    private let background: NSManagedObjectContext
    private let view: NSManagedObjectContext
    private var token: NSPersistentHistoryToken?
    private var seen: [Int: Double] = [:]

    init(background: NSManagedObjectContext, view: NSManagedObjectContext, token: NSPersistentHistoryToken?) {
        self.background = background
        self.view = view
        self.token = token
    }

    var noticed: [Int: Double] { lock.lock(); defer { lock.unlock() }; return seen }

    /// Catches up; returns how many saves have been seen.
    func catchUp(at time: Double) -> Int {
        lock.lock(); defer { lock.unlock() }
        let (inserted, updated, deleted, saves, last): ([NSManagedObjectID], [NSManagedObjectID], [NSManagedObjectID], [Int], NSPersistentHistoryToken?) = background.performAndWait {
            let request = NSPersistentHistoryChangeRequest.fetchHistory(after: token)
            let transactions = (try? background.execute(request) as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction] ?? []
            let changes = transactions.flatMap { $0.changes ?? [] }
            let inserted = changes.filter { $0.changeType == .insert }.map(\.changedObjectID)
            let saves = inserted.compactMap { (try? background.existingObject(with: $0))?.value(forKey: "save") as? Int }
            return (inserted, changes.filter { $0.changeType == .update }.map(\.changedObjectID),
                    changes.filter { $0.changeType == .delete }.map(\.changedObjectID), saves, transactions.last?.token)
        }
        for save in saves where seen[save] == nil { seen[save] = time }
        token = last ?? token
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSInsertedObjectsKey: inserted, NSUpdatedObjectsKey: updated, NSDeletedObjectsKey: deleted],
                                            into: [view])
        return seen.count
    }
}

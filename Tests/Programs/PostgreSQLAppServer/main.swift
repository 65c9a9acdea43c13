import Foundation
import OpenCoreDataPostgreSQL

// One app server of the multi-server proof (PostgreSQLMultiServerTests): for a number of
// seconds it increments shared counters under the error merge policy (retrying conflicts),
// inserts tickets under a uniqueness constraint, deletes and re-inserts its own, and measures
// how long other servers' saves take to reach it through remote-change notifications.
//
//     ocd-pg-appserver <store URL> setup               # the counters c0...c3
//     ocd-pg-appserver <store URL> <seconds> <n>       # prints one line: RESULT {json}
//     ocd-pg-appserver <store URL> batches [seconds]   # all-or-nothing batches, until killed

func attribute(_ name: String, _ type: NSAttributeType) -> NSAttributeDescription {
    let a = NSAttributeDescription()
    a.name = name
    a.attributeType = type
    return a
}

let model: NSManagedObjectModel = {
    let counter = NSEntityDescription()
    counter.name = "Counter"
    counter.properties = [attribute("name", .stringAttributeType), attribute("value", .integer64AttributeType)]
    counter.uniquenessConstraints = [["name"]]
    let ticket = NSEntityDescription()
    ticket.name = "Ticket"
    ticket.properties = [attribute("code", .stringAttributeType), attribute("server", .integer16AttributeType)]
    ticket.uniquenessConstraints = [["code"]]
    let model = NSManagedObjectModel()
    model.entities = [counter, ticket]
    return model
}()

let arguments = CommandLine.arguments
guard arguments.count >= 3, let url = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: ocd-pg-appserver <store URL> setup | <seconds> <n>\n".utf8))
    exit(2)
}
let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
do {
    try coordinator.addPersistentStore(ofType: OCDPostgreSQLStoreType, configurationName: nil, at: url,
                                       options: [NSPersistentHistoryTrackingKey: true, NSPersistentStoreRemoteChangeNotificationPostOptionKey: true])
} catch {
    FileHandle.standardError.write(Data("cannot open \(url): \(error)\n".utf8))
    exit(1)
}
let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
context.persistentStoreCoordinator = coordinator

/// One batch: ten tickets `b<uuid>-<i>` and c0 raised by ten, saved together; false when the
/// save failed (its changes are dropped).
func saveBatch(in context: NSManagedObjectContext) -> Bool {
    context.performAndWait {
        let batch = UUID().uuidString
        for i in 0..<10 {
            let ticket = NSEntityDescription.insertNewObject(forEntityName: "Ticket", into: context)
            ticket.setValue("b\(batch)-\(i)", forKey: "code")
            ticket.setValue(Int16(-1), forKey: "server")
        }
        let request = NSFetchRequest<NSManagedObject>(entityName: "Counter")
        request.predicate = NSPredicate(format: "name == 'c0'")
        do {
            guard let counter = try context.fetch(request).first else { return false }
            counter.setValue(((counter.value(forKey: "value") as? Int64) ?? 0) + 10, forKey: "value")
            try context.save()
            return true
        } catch {
            context.rollback()
            context.reset()
            return false
        }
    }
}

if arguments[2] == "setup" {
    try context.performAndWait {
        for i in 0..<4 {
            let c = NSEntityDescription.insertNewObject(forEntityName: "Counter", into: context)
            c.setValue("c\(i)", forKey: "name")
            c.setValue(Int64(0), forKey: "value")
        }
        try context.save()
    }
    exit(0)
}
if arguments[2] == "batches" {
    // Saves batches until killed (or for the seconds given): each one ten tickets and the
    // counter c0 raised by ten, in one save, so the store holds as many batch tickets as c0
    // counts exactly when every save was all or nothing.
    let until = arguments.count > 3 ? Date().addingTimeInterval(Double(arguments[3]) ?? 0) : Date.distantFuture
    var saved = 0
    while Date() < until {
        saved += saveBatch(in: context) ? 1 : 0
    }
    print("SAVED \(saved)")
    exit(0)
}

guard arguments.count == 4, let seconds = Double(arguments[2]), let server = Int16(arguments[3]) else { exit(2) }
let author = "server\(server)"

// Other servers' saves: when each reached this one, measured from the transaction's timestamp.
final class Arrivals: @unchecked Sendable {
    // @unchecked Sendable: everything is used on `queue` only.
    let queue = DispatchQueue(label: "arrivals")
    let reader: NSManagedObjectContext
    let author: String
    var token: NSPersistentHistoryToken?
    var delays: [Double] = []
    init(_ coordinator: NSPersistentStoreCoordinator, author: String) {
        self.author = author
        reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        token = coordinator.currentPersistentHistoryToken(fromStores: nil)
    }
    func catchUp() {
        queue.async { [self] in
            let now = Date()
            reader.performAndWait {
                let request = NSPersistentHistoryChangeRequest.fetchHistory(after: token)
                guard let transactions = (try? reader.execute(request) as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction] else { return }
                for transaction in transactions {
                    if transaction.author != author { delays.append(now.timeIntervalSince(transaction.timestamp)) }
                    token = transaction.token
                }
            }
        }
    }
}
let arrivals = Arrivals(coordinator, author: author)
let observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: coordinator, queue: nil) { _ in arrivals.catchUp() }

/// Runs the workload for `seconds`; returns what it saved.
func work(seconds: Double, server: Int16, author: String, in context: NSManagedObjectContext) -> (increments: Int, inserted: Int, deleted: Int, conflicts: Int) {
    var increments = 0, inserted = 0, deleted = 0, conflicts = 0
    let deadline = Date().addingTimeInterval(seconds)
    var iteration = 0
    context.performAndWait {
        context.transactionAuthor = author
        func save() -> Bool {
            do {
                try context.save()
                return true
            } catch {
                conflicts += 1
                context.rollback()
                context.reset()
                return false
            }
        }
        while Date() < deadline {
            iteration += 1
            switch iteration % 3 {
            case 0:
                // Increment a shared counter; a conflict (another server incremented it since we
                // read it) is retried with the fresh value.
                let name = "c\(Int.random(in: 0..<4))"
                while Date() < deadline.addingTimeInterval(5) {
                    let request = NSFetchRequest<NSManagedObject>(entityName: "Counter")
                    request.predicate = NSPredicate(format: "name == %@", name)
                    guard let counter = try? context.fetch(request).first else { break }
                    counter.setValue(((counter.value(forKey: "value") as? Int64) ?? 0) + 1, forKey: "value")
                    if save() { increments += 1; break }
                }
            case 1:
                let ticket = NSEntityDescription.insertNewObject(forEntityName: "Ticket", into: context)
                ticket.setValue("t\(Int.random(in: 0..<300))", forKey: "code")
                ticket.setValue(server, forKey: "server")
                if save() { inserted += 1 }
            default:
                // Delete one of our tickets and insert its code again.
                let request = NSFetchRequest<NSManagedObject>(entityName: "Ticket")
                request.predicate = NSPredicate(format: "server == %d", Int(server))
                request.fetchLimit = 1
                guard let ticket = try? context.fetch(request).first, let code = ticket.value(forKey: "code") as? String else { continue }
                context.delete(ticket)
                guard save() else { continue }
                deleted += 1
                let again = NSEntityDescription.insertNewObject(forEntityName: "Ticket", into: context)
                again.setValue(code, forKey: "code")
                again.setValue(server, forKey: "server")
                if save() { inserted += 1 }
            }
        }
    }
    return (increments, inserted, deleted, conflicts)
}
let (increments, inserted, deleted, conflicts) = work(seconds: seconds, server: server, author: author, in: context)

// Let the last notifications arrive.
Thread.sleep(forTimeInterval: 0.5)
let delays = arrivals.queue.sync { arrivals.delays }
NotificationCenter.default.removeObserver(observer)
let result: [String: Any] = ["increments": increments, "inserted": inserted, "deleted": deleted, "conflicts": conflicts, "delays": delays]
let json = try JSONSerialization.data(withJSONObject: result)
print("RESULT " + String(decoding: json, as: UTF8.self))

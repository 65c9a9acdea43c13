import Foundation
import Hummingbird
import OpenCoreData

/// The server's routes:
///
/// - `POST /employees` with `{"name": "Ada", "team": "Engines"}` saves a new employee.
/// - `GET /employees/live` streams the employees, sectioned by team and sorted by name, as
///   server-sent events: first the whole list, then one event per change, for as long as the
///   client stays connected (`?events=N` ends the stream after N events).
///
/// Each live list runs its own query in a background context that merges the saves of the
/// others (`automaticallyMergesChangesFromParent`), so a save anywhere reaches every client.
public struct LiveListServer: Sendable {
    public let container: NSPersistentContainer
    /// How many live lists are streaming now.
    public let liveLists = LiveListCounter()

    public init(container: NSPersistentContainer) {
        self.container = container
    }

    struct NewEmployee: Decodable {
        var name: String
        var team: String
    }

    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("employees") { request, context -> HTTPResponse.Status in
            let new = try await request.decode(as: NewEmployee.self, context: context)
            try await container.performBackgroundTask { context in
                let employee = Employee(context: context)
                employee.name = new.name
                employee.team = new.team
                try context.save()
            }
            return .created
        }
        router.get("employees/live") { request, _ -> Response in
            let limit = request.uri.queryParameters.get("events", as: Int.self)
            let context = container.newBackgroundContext()
            context.automaticallyMergesChangesFromParent = true
            let fetch = NSFetchRequest<Employee>(entityName: "Employee")
            fetch.sortDescriptors = [NSSortDescriptor(key: "team", ascending: true), NSSortDescriptor(key: "name", ascending: true)]
            let changes = context.resultChanges(for: fetch, sectionNameKeyPath: "team")
            let counter = liveLists
            let body = ResponseBody { writer in
                await counter.started()
                var sent = 0
                for await change in changes {
                    let event = try await LiveListEvent(change, in: context)
                    try await writer.write(ByteBuffer(string: "data: \(event.json)\n\n"))
                    sent += 1
                    if let limit, sent >= limit { break }
                }
                await counter.ended()
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
        }
        return router
    }
}

/// Counts the live lists being streamed.
public actor LiveListCounter {
    public private(set) var running = 0
    func started() { running += 1 }
    func ended() { running -= 1 }
}

/// One server-sent event: the whole list, or one event's changes, with each employee's name.
struct LiveListEvent: Encodable {
    struct Section: Encodable { var team: String; var names: [String] }
    struct Change: Encodable { var type: String; var name: String; var from: [Int]?; var to: [Int]? }
    var list: [Section]?
    var insertedTeams: [Int]
    var deletedTeams: [Int]
    var changes: [Change]

    init(_ change: FetchedResultsChange, in context: NSManagedObjectContext) async throws {
        // Names are read on the context's queue, where its objects live.
        let box = UncheckedChange(change)
        self = try await context.perform {
            let change = box.value
            func name(_ id: NSManagedObjectID) -> String {
                ((try? context.existingObject(with: id)) as? Employee)?.name ?? ""
            }
            func path(_ p: IndexPath?) -> [Int]? { p.map { [$0.section, $0.item] } }
            func typeName(_ type: NSFetchedResultsChangeType) -> String {
                switch type {
                case .insert: "insert"
                case .delete: "delete"
                case .move: "move"
                case .update: "update"
                @unknown default: "unknown"
                }
            }
            return LiveListEvent(
                list: change.sections?.map { Section(team: $0.name, names: $0.objectIDs.map(name)) },
                insertedTeams: change.sectionChanges.filter { $0.type == .insert }.map(\.index),
                deletedTeams: change.sectionChanges.filter { $0.type == .delete }.map(\.index),
                changes: change.objectChanges.map { Change(type: typeName($0.type), name: name($0.objectID), from: path($0.indexPath), to: path($0.newIndexPath)) })
        }
    }

    private init(list: [Section]?, insertedTeams: [Int], deletedTeams: [Int], changes: [Change]) {
        self.list = list
        self.insertedTeams = insertedTeams
        self.deletedTeams = deletedTeams
        self.changes = changes
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try! encoder.encode(self), as: UTF8.self)
    }
}

/// A change is made of Sendable values; this only carries it into the context's block.
struct UncheckedChange: Sendable {
    let value: FetchedResultsChange
    init(_ value: FetchedResultsChange) { self.value = value }
}

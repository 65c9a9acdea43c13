import Foundation

/// A generation of the stores' data that a context can be pinned to: while pinned, its fetches
/// and faults read the stores as they were when the generation began, whatever other contexts
/// and processes save meanwhile.
///
/// ```swift
/// try context.setQueryGenerationFrom(.current)      // pinned at its next read
/// let orders = try context.fetch(Order.fetchRequest())
/// // … other contexts save; `context` still reads the generation it pinned …
/// try other.setQueryGenerationFrom(context.queryGenerationToken)   // the same generation
/// try context.setQueryGenerationFrom(nil)            // unpinned: reads the latest again
/// ```
///
/// A pinned context moves to the then current generation when it saves, merges a save
/// (`mergeChanges(fromContextDidSave:)`) or is reset. Generations need stores that can keep
/// one: SQLite stores in WAL journal mode (the default); for any other store
/// `setQueryGenerationFrom(_:)` throws.
public final class NSQueryGenerationToken: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: immutable after init; the generations' connections are used only
    // under their stores' locks.

    /// The token that asks for the current generation, fixed when the context next reads.
    public class var current: NSQueryGenerationToken { currentToken }
    private static let currentToken = NSQueryGenerationToken(generations: [], isCurrent: true)

    /// Whether this is ``current``: a request for a generation, not one.
    let isCurrent: Bool
    /// One open generation per store of the coordinator, held as long as the token is. Stores
    /// are named by their process-unique ``NSPersistentStore/token``, never by address: a store
    /// added after another was freed may take its address.
    let generations: [(store: Int32, generation: any StoreReadGeneration)]

    init(generations: [(store: Int32, generation: any StoreReadGeneration)], isCurrent: Bool = false) {
        self.generations = generations
        self.isCurrent = isCurrent
        super.init()
    }

    /// The generation this token holds for `store`, if any.
    func generation(for store: NSPersistentStore) -> (any StoreReadGeneration)? {
        let id = store.token
        return generations.first { $0.store == id }?.generation
    }

    public static var supportsSecureCoding: Bool { true }

    /// A generation lives only as long as the process holds it: an archived token other than
    /// ``current`` decodes as a token that no longer names a generation, which
    /// `setQueryGenerationFrom(_:)` refuses.
    public func encode(with coder: NSCoder) {
        coder.encode(isCurrent, forKey: "NSQueryGenerationTokenIsCurrent")
    }

    public init?(coder: NSCoder) {
        isCurrent = coder.decodeBool(forKey: "NSQueryGenerationTokenIsCurrent")
        generations = []
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSQueryGenerationToken else { return false }
        if other === self { return true }
        if isCurrent || other.isCurrent { return isCurrent == other.isCurrent }
        return !generations.isEmpty && generations.count == other.generations.count
            && zip(generations, other.generations).allSatisfy { $0.store == $1.store && $0.generation === $1.generation }
    }

    public override var hash: Int { isCurrent ? 1 : generations.first.map { ObjectIdentifier($0.generation).hashValue } ?? 0 }

    public override var description: String {
        isCurrent ? "<NSQueryGenerationToken current>" : "<NSQueryGenerationToken \(generations.map { "\($0.generation)" }.joined(separator: ", "))>"
    }
}

/// One store's open generation: what its reads see while a context is pinned to it. The store
/// closes it when the last token holding it goes.
protocol StoreReadGeneration: AnyObject, Sendable {}

/// A store that can keep query generations.
protocol QueryGenerationStore: AnyObject {
    /// Why the store can't keep a generation now (nil when it can): for the error.
    var queryGenerationUnavailableReason: String? { get }
    /// Begins a generation at the store's latest committed state.
    func beginReadGeneration() throws -> any StoreReadGeneration
}

/// The generation the reads on this thread belong to: set by a pinned context around its
/// fetches and faults, read by the coordinator (which then keeps those rows out of its shared
/// cache's answers) and by the stores (which read from the generation).
enum QueryGenerationScope {
    @TaskLocal static var token: NSQueryGenerationToken?

    /// Whether a pinned context is reading.
    static var isPinned: Bool { token != nil }
}

extension NSPersistentStoreCoordinator {
    /// A token holding a new generation of every store, begun under the coordinator's lock so
    /// that no save of this coordinator falls between two stores' generations. Throws 134091
    /// when a store can't keep one.
    func newQueryGenerationToken() throws -> NSQueryGenerationToken {
        try locked {
            var generations: [(store: Int32, generation: any StoreReadGeneration)] = []
            for store in persistentStores {
                try Self.checkQueryGenerations(in: store)
                generations.append((store.token, try (store as! QueryGenerationStore).beginReadGeneration()))
            }
            return NSQueryGenerationToken(generations: generations)
        }
    }

    /// Throws 134091 unless `store` keeps query generations now.
    static func checkQueryGenerations(in store: NSPersistentStore) throws {
        guard let keeping = store as? QueryGenerationStore else {
            throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "Query generations need stores that can keep one: SQLite stores in WAL journal mode. The \(store.type) store at \(store.url?.path ?? "?") can't; read it unpinned (setQueryGenerationFrom(nil)).")
        }
        if let reason = keeping.queryGenerationUnavailableReason {
            throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "Query generations need SQLite stores in WAL journal mode: \(reason)")
        }
    }
}

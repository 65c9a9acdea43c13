import Foundation
import Synchronization

/// Query generations (Core Data's "Query Generations"): a context pinned to a generation reads
/// the stores as they were when the generation began.
///
/// ```swift
/// try context.setQueryGenerationFrom(.current)
/// let before = try context.count(for: Order.fetchRequest())
/// // another context saves new orders …
/// XCTAssertEqual(try context.count(for: Order.fetchRequest()), before)   // still the same generation
/// try context.save()   // or reset(), or mergeChanges(fromContextDidSave:): the current generation
/// ```
///
/// The generation is fixed at the context's first read after `.current` is set (or when
/// ``queryGenerationToken`` is first asked for), and moves to the then current one after the
/// context saves, merges a save or is reset. Setting a generation does not refresh the
/// context's objects; refresh them (`refreshAllObjects()`) to see it at once.
extension NSManagedObjectContext {
    /// The token of the generation the context is pinned to; nil when it reads the latest data,
    /// and for a child context, which reads its parent's data.
    public var queryGenerationToken: NSQueryGenerationToken? {
        assertOnQueue()
        guard parent == nil else { return nil }
        switch queryGenerationPin.withLock({ $0 }) {
        case .unpinned: return nil
        case .pinned(let token): return token
        case .current: return try? resolvedQueryGeneration()
        }
    }

    /// Pins the context to a generation: `.current` (fixed at its next read) or another
    /// context's ``queryGenerationToken`` of the same coordinator; nil unpins it.
    ///
    /// Throws `NSPersistentStoreUnsupportedRequestTypeError` (134091) when a store can't keep
    /// generations (only SQLite stores in WAL journal mode can), and `NSCoreDataError` (134060)
    /// for a token that names no generation of this context's stores (another coordinator's, or
    /// one archived and read back) and on a child context, which reads its parent's generation
    /// (Apple calls setting one there a programmer error).
    public func setQueryGenerationFrom(_ generation: NSQueryGenerationToken?) throws {
        assertOnQueue()
        guard parent == nil else {
            throw CoreDataError.make(NSCoreDataError, "setQueryGenerationFrom: a child context reads its parent's data, in the parent's query generation. Set the generation on the root context.")
        }
        guard let generation else {
            queryGenerationPin.withLock { $0 = .unpinned }
            return
        }
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "setQueryGenerationFrom: this context has no persistent store coordinator.")
        }
        for store in coordinator.persistentStores { try NSPersistentStoreCoordinator.checkQueryGenerations(in: store) }
        if generation.isCurrent {
            queryGenerationPin.withLock { $0 = .current }
            return
        }
        // Apple tracks a generation across the union of stores: a store added since the token was
        // made is read at its latest until the generation moves; the token's stores must be here.
        let stores = Set(coordinator.persistentStores.map(\.token))
        guard !generation.generations.isEmpty, generation.generations.allSatisfy({ stores.contains($0.store) }) else {
            throw CoreDataError.make(NSCoreDataError, "setQueryGenerationFrom: the token names no generation of this context's stores (it comes from another coordinator, or was archived: a generation lives only while a context holds it). Pass NSQueryGenerationToken.current, or the queryGenerationToken of a context of this coordinator.")
        }
        queryGenerationPin.withLock { $0 = .pinned(generation) }
    }

    /// Runs `body` — a read of the stores — in the context's generation, fixing it first if
    /// the context asked for the current one. A context that is not pinned (or whose stores
    /// fail to begin a generation) reads the latest data, also when it reads from inside a
    /// pinned context's read (an `awakeFromFetch` that fetches in another context).
    func readingQueryGeneration<T>(_ body: () throws -> T) rethrows -> T {
        let token: NSQueryGenerationToken?
        switch queryGenerationPin.withLock({ $0 }) {
        case .unpinned: token = nil
        case .pinned(let pinned): token = pinned
        case .current: token = try? resolvedQueryGeneration()
        }
        guard QueryGenerationScope.token !== token else { return try body() }
        return try QueryGenerationScope.$token.withValue(token, operation: body)
    }

    /// A pinned context moves to the generation current at its next read (after a save, a
    /// merge, a reset).
    func advanceQueryGeneration() {
        queryGenerationPin.withLock { if case .pinned = $0 { $0 = .current } }
    }

    /// Begins a generation and pins the context to it: at the first read after `.current`, or
    /// (`replacing`) after a pinned context's save. Begun outside the pin's lock (it takes the
    /// coordinator's); when another read fixed the generation meanwhile, that one is kept, so
    /// the context reads one generation.
    func resolvedQueryGeneration(replacing: Bool = false) throws -> NSQueryGenerationToken? {
        guard let coordinator = persistentStoreCoordinator else { return nil }
        let token = try coordinator.newQueryGenerationToken()
        return queryGenerationPin.withLock { pin in
            if !replacing, case .pinned(let fixed) = pin { return fixed }
            pin = .pinned(token)
            return token
        }
    }
}

/// What a context reads: the latest data, the generation current at its next read, or a
/// generation it holds.
enum QueryGenerationPin {
    case unpinned
    case current
    case pinned(NSQueryGenerationToken)
}

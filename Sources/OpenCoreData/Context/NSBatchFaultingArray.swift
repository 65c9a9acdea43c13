import Foundation

/// The result of a batched fetch that makes its objects one batch at a time, as they are read:
/// the Swift form of the proxy array Apple's `fetch(_:)` returns when `fetchBatchSize` is set.
///
/// ```swift
/// let request = NSFetchRequest<Item>(entityName: "Item")
/// request.fetchBatchSize = 500
/// let items = try context.fetchBatched(request)  // one query: the matching keys, 8 bytes a row
/// var total = 0.0
/// for item in items { total += item.price }      // one query per 500 items
/// let middle = items[items.count / 2]            // random access loads just that batch
/// ```
///
/// On Apple platforms `fetch(_:)` returns an `NSArray` subclass that holds only the matching
/// object IDs and realizes the objects of a batch when one of them is read. A Swift `[T]` can
/// be nothing but a buffer of references, so OpenCoreData's `fetch(_:)` must make every object
/// of the result up front; this collection, returned by
/// ``NSManagedObjectContext/fetchBatched(_:)``, is the lazy form (docs/DEVIATIONS.md):
///
/// - It holds the primary key of each matching row (plus a 2-byte entity number when the
///   result mixes subentities) — no object, no object ID, no identity-map entry per row.
/// - Reading element `i` realizes the batch of `fetchBatchSize` elements around it: object IDs
///   are made for that batch only, objects already registered in the context are used as they
///   are (with their unsaved changes — the same objects `fetch(_:)` returns), and the values of
///   the others are read with one `WHERE Z_PK IN (...)` query.
/// - The collection keeps the objects of the last three batches it realized. Objects of older
///   batches that nothing else references are deallocated and leave the context, as any
///   unreferenced object does; reading them again realizes their batch again (one query). So
///   iterating 1,000,000 rows holds a few batches of objects at a time, not 1,000,000.
///
/// The contents are fixed when the fetch runs (as Apple's are): a later insertion does not
/// appear, a later deletion does not disappear. Use the collection, like its objects, on the
/// context's queue only.
///
/// When batching cannot apply, the collection holds `fetch(_:)`'s array instead, with the same
/// answer: `fetchBatchSize` 0, results other than managed objects, pending changes that the
/// request includes, a plan the store cannot evaluate exactly, prefetching, a child context, or
/// a store that cannot list keys (every store but SQLite).
public struct NSBatchFaultingArray<Element>: RandomAccessCollection {
    public typealias Index = Int

    private enum Storage {
        /// `fetch(_:)`'s answer, when batching does not apply.
        case array([Element])
        case batches(BatchFaultingStorage<Element>)
    }

    private let storage: Storage

    init(_ array: [Element]) { storage = .array(array) }
    init(_ batches: BatchFaultingStorage<Element>) { storage = .batches(batches) }

    /// Whether objects are realized batch by batch (false: the collection holds an array).
    var isBatchFaulting: Bool {
        if case .batches = storage { return true }
        return false
    }

    public var startIndex: Int { 0 }

    public var endIndex: Int {
        switch storage {
        case .array(let array): return array.count
        case .batches(let batches): return batches.count
        }
    }

    /// The element at `position`, realizing its batch if the collection does not hold it.
    public subscript(position: Int) -> Element {
        switch storage {
        case .array(let array): return array[position]
        case .batches(let batches): return batches.element(at: position)
        }
    }
}

/// The lazy state of an ``NSBatchFaultingArray``: the fetch's keys and the recently realized
/// batches. A class, so copies of the collection share what was realized.
final class BatchFaultingStorage<Element> {
    /// How many realized batches stay referenced: the current one and the two read before it,
    /// so iterating forwards or backwards, or alternating across a batch boundary, never reads a
    /// batch twice in a row.
    static var retainedBatches: Int { 3 }

    private let context: NSManagedObjectContext
    private let keys: FetchedObjectKeys
    private let batchSize: Int
    private let asFaults: Bool
    /// Managed object → element, checked once for every entity of the result when the fetch
    /// ran (``converter(for:)``), so it cannot fail here.
    private let convert: (NSManagedObject) -> Element
    /// The batch read last and its objects: the hot path of a sequential read.
    @exclusivity(unchecked) private var currentBatch = -1
    @exclusivity(unchecked) private var current: [NSManagedObject] = []
    /// The other retained batches, least recently read first.
    @exclusivity(unchecked) private var older: [(batch: Int, objects: [NSManagedObject])] = []

    init(context: NSManagedObjectContext, keys: FetchedObjectKeys, batchSize: Int, asFaults: Bool, convert: @escaping (NSManagedObject) -> Element) {
        self.context = context
        self.keys = keys
        self.batchSize = max(1, batchSize)
        self.asFaults = asFaults
        self.convert = convert
    }

    var count: Int { keys.count }

    func element(at position: Int) -> Element {
        precondition(position >= 0 && position < keys.count, "Index \(position) out of range 0..<\(keys.count)")
        let batch = position / batchSize
        if batch != currentBatch { realize(batch) }
        return convert(current[position - batch * batchSize])
    }

    /// Makes `batch` the current one: from the retained batches, else realized by the context.
    private func realize(_ batch: Int) {
        let objects: [NSManagedObject]
        if let index = older.firstIndex(where: { $0.batch == batch }) {
            objects = older.remove(at: index).objects
        } else {
            let start = batch * batchSize
            objects = context.batchObjects(start ..< min(keys.count, start + batchSize), of: keys, asFaults: asFaults)
        }
        if currentBatch >= 0 { older.append((currentBatch, current)) }
        // The oldest batch goes: its objects are deallocated unless the caller holds them.
        if older.count >= Self.retainedBatches { older.removeFirst() }
        currentBatch = batch
        current = objects
    }

    /// How a managed object becomes an `Element`, when every object of `entities` can: `Element`
    /// is a class all their classes descend from, or a type every managed object is
    /// (`NSFetchRequestResult`, `AnyObject`, `Any`). Nil otherwise: `fetch(_:)` then answers (and
    /// reports the mismatch as it does).
    static func converter(for entities: [NSEntityDescription]) -> ((NSManagedObject) -> Element)? {
        if Element.self is NSManagedObject.Type {
            guard entities.allSatisfy({ $0.resolvedClass is Element.Type }) else { return nil }
            // Objects made by fetching are of their entity's class: one pointer compare, then
            // a reinterpretation (class references share one layout). Any other object — one a
            // caller made with a base-class initializer, say — takes the checked cast.
            let classes = entities.map { ObjectIdentifier($0.resolvedClass) }
            return { object in
                if classes.contains(ObjectIdentifier(type(of: object))) { return unsafeBitCast(object, to: Element.self) }
                guard let element = object as? Element else {
                    preconditionFailure("fetchBatched: a registered \(type(of: object)) for entity '\(object.entity.name ?? "?")' is not a \(Element.self). Create objects of this entity with its class (\(Element.self)(context:)), or fetch NSFetchRequest<NSManagedObject>.")
                }
                return element
            }
        }
        if Element.self == (any NSFetchRequestResult).self || Element.self == AnyObject.self || Element.self == Any.self {
            return { $0 as! Element }
        }
        return nil
    }
}

import Foundation

// Dictionary results (`.dictionaryResultType`): columns, DISTINCT, GROUP BY with aggregates and
// HAVING. A store that can answer the request exactly does (the SQLite store, in SQL);
// otherwise the context computes the same answer in memory.
//
// Apple's rule (NSFetchRequest.includesPendingChanges): dictionary results, aggregates included,
// reflect the persistent store and not the context's pending insertions, changes or deletions.
// So both paths read the store's state: the in-memory path evaluates on a private scratch
// context of the same coordinator (or parent), which has no pending changes, and never
// registers objects in this context.
extension NSManagedObjectContext {
    /// The dictionaries of a `.dictionaryResultType` fetch, as `T`.
    func fetchDictionaries<T>(_ request: NSFetchRequest<T>, entity: NSEntityDescription, coordinator: NSPersistentStoreCoordinator) throws -> [T] {
        let dictionaryPlan = try DictionaryResultPlan(request, entity: entity)
        let plan = FetchPlan(request, entity: entity, context: self)
        let rows: [[String: Any]]
        if parent == nil, let answer = try coordinator.prepareFetch(plan).dictionaries(dictionaryPlan) {
            rows = answer
        } else {
            let scratch = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            if let parent { scratch.parent = parent } else { scratch.persistentStoreCoordinator = coordinator }
            rows = try scratch.performAndWait { try scratch.dictionariesInMemory(request, entity: entity, dictionaryPlan) }
        }
        return try rows.map { row in
            if let typed = row as? T { return typed }
            if let typed = NSDictionary(dictionary: row) as? T { return typed }
            throw CoreDataError.make(NSCoreDataError, "fetch: a dictionary result is not a \(T.self). Fetch NSFetchRequest<NSDictionary>, NSFetchRequest<[String: Any]> or NSFetchRequest<NSFetchRequestResult>.")
        }
    }

    /// Evaluates a dictionary fetch on this context's objects (a scratch context without
    /// changes): filter and sort as an object fetch does, then group, aggregate, apply HAVING,
    /// DISTINCT, offset and limit — in the order SQL applies them.
    ///
    /// Order: rows keep the sorted order (ties by store order); a group, or a distinct
    /// dictionary, comes where its first row is. That is the order the SQLite store gives
    /// (`ORDER BY <sort keys>, MIN(Z_PK)`).
    private func dictionariesInMemory<T>(_ request: NSFetchRequest<T>, entity: NSEntityDescription, _ plan: DictionaryResultPlan) throws -> [[String: Any]] {
        let objectsRequest = NSFetchRequest<NSManagedObject>()
        objectsRequest.entity = entity
        objectsRequest.predicate = request.predicate
        objectsRequest.includesSubentities = request.includesSubentities
        objectsRequest.affectedStores = request.affectedStores
        objectsRequest.includesPendingChanges = false
        objectsRequest.returnsObjectsAsFaults = false
        // Key order, then a stable sort: the order SQL gives with `ORDER BY <keys>, Z_PK`
        // (an unsorted object fetch may come in an index's order).
        var objects = try fetch(objectsRequest).sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
        if !plan.isSingleRow, let sortDescriptors = request.sortDescriptors, !sortDescriptors.isEmpty {
            objects = try SortEvaluation.sorted(objects, by: sortDescriptors)
        }

        func read(_ value: DictionaryResultPlan.Value, of object: NSManagedObject) -> StoredValue {
            var current = object
            for relationship in value.path {
                guard let i = current.layout.indexByName[relationship.name], let next = current.readToOne(i) else { return .null }
                current = next
            }
            if value.isObjectID { return .objectID(current.objectID) }
            guard let i = current.layout.indexByName[value.property.name] else { return .null }
            if value.property is NSRelationshipDescription {
                return current.readToOne(i).map { .objectID($0.objectID) } ?? .null
            }
            return current.readStored(i)
        }

        var result: [[String: Any]] = []
        if !plan.isGrouped && !plan.isSingleRow {
            var seen = Set<[DictionaryGroupKey]>()
            for object in objects {
                var row: [String: Any] = [:]
                var key: [DictionaryGroupKey] = []
                for case let .value(v) in plan.columns {
                    let stored = read(v, of: object)
                    if plan.distinct { key.append(DictionaryGroupKey(stored)) }
                    row[v.name] = DictionaryResultPlan.publicValue(stored, of: v.property)
                }
                if plan.distinct && !seen.insert(key).inserted { continue }
                result.append(row)
            }
        } else {
            // Groups in order of their first row; the whole fetch is one group without GROUP BY.
            var groups: [(first: NSManagedObject?, members: [NSManagedObject], keyValues: [StoredValue])] = []
            if plan.isGrouped {
                var index: [[DictionaryGroupKey]: Int] = [:]
                for object in objects {
                    let values = plan.groupBy.map { read($0, of: object) }
                    let key = values.map(DictionaryGroupKey.init)
                    if let i = index[key] { groups[i].members.append(object) }
                    else { index[key] = groups.count; groups.append((object, [object], values)) }
                }
            } else {
                groups = [(objects.first, objects, [])]
            }
            var seen = Set<[DictionaryGroupKey]>()
            for group in groups {
                var row: [String: Any] = [:]
                // HAVING sees every grouped value and aggregate by name, fetched or not.
                var havingValues: [String: Any] = [:]
                for (value, stored) in zip(plan.groupBy, group.keyValues) {
                    havingValues[value.name] = DictionaryResultPlan.publicValue(stored, of: value.property)
                }
                var key: [DictionaryGroupKey] = []
                for column in plan.columns {
                    let stored: StoredValue
                    let publicValue: Any?
                    switch column {
                    case .value(let v):
                        stored = group.first.map { read(v, of: $0) } ?? .null
                        publicValue = DictionaryResultPlan.publicValue(stored, of: v.property)
                    case .aggregate(let a):
                        stored = DictionaryResultPlan.convert(try Self.aggregate(a, group.members.map { read(a.argument, of: $0) }), to: a.resultType)
                        publicValue = stored.publicValue(as: a.resultType)
                    }
                    key.append(DictionaryGroupKey(stored))
                    row[column.name] = publicValue
                    havingValues[column.name] = publicValue
                }
                if let having = plan.having, !(try having.evaluateThrowing(with: havingValues)) { continue }
                if plan.distinct && !seen.insert(key).inserted { continue }
                result.append(row)
            }
        }
        if request.fetchOffset > 0 { result = Array(result.dropFirst(request.fetchOffset)) }
        if request.fetchLimit > 0 { result = Array(result.prefix(request.fetchLimit)) }
        return result
    }

    /// An aggregate over a group's values, as SQL computes it: nil values are skipped; `count`
    /// of none is 0, the others of none are nil; integer sums are exact (overflow is an error,
    /// as in SQLite), averages divide the Double sum in row order by the count.
    private static func aggregate(_ aggregate: DictionaryResultPlan.Aggregate, _ values: [StoredValue]) throws -> StoredValue {
        let present = values.filter { !$0.isNull }
        switch aggregate.function {
        case .count:
            return .integer(Int64(present.count))
        case .sum, .average:
            guard !present.isEmpty else { return .null }
            var integerSum: Int64 = 0, doubleSum = 0.0, decimalSum = Decimal(0)
            var kind = 0  // 0 integers, 1 doubles, 2 decimals
            for value in present {
                switch value {
                case .integer(let i):
                    let (sum, overflow) = integerSum.addingReportingOverflow(i)
                    if overflow && aggregate.function == .sum { throw CoreDataError.make(NSCoreDataError, "sum: of '\(aggregate.argument.keyPath)' overflows a 64-bit integer (SQLite reports \"integer overflow\").") }
                    integerSum = sum; doubleSum += Double(i); decimalSum += Decimal(i)
                case .bool(let b):
                    integerSum &+= b ? 1 : 0; doubleSum += b ? 1 : 0; decimalSum += b ? 1 : 0
                case .double(let d):
                    kind = max(kind, 1); doubleSum += d
                case .decimal(let d):
                    kind = 2; decimalSum += d
                default:
                    continue
                }
            }
            if aggregate.function == .sum {
                return kind == 2 ? .decimal(decimalSum) : kind == 1 ? .double(doubleSum) : .integer(integerSum)
            }
            return kind == 2 ? .decimal(decimalSum / Decimal(present.count)) : .double(doubleSum / Double(present.count))
        case .min, .max:
            var best: StoredValue?
            for value in present {
                guard let current = best else { best = value; continue }
                let ascending = Self.isLess(value, current)
                if aggregate.function == .min ? ascending : Self.isLess(current, value) { best = value }
            }
            return best ?? .null
        }
    }

    /// The order SQL's MIN/MAX use on a column's values (strings: the `OCD_UNICODE`
    /// collation, which is Swift's `<`).
    private static func isLess(_ a: StoredValue, _ b: StoredValue) -> Bool {
        switch (a, b) {
        case let (.integer(x), .integer(y)): return x < y
        case let (.bool(x), .bool(y)): return !x && y
        case let (.double(x), .double(y)): return x < y
        case let (.date(x), .date(y)): return x < y
        case let (.string(x), .string(y)): return x < y
        case let (.decimal(x), .decimal(y)): return x < y
        default: return false
        }
    }
}

/// A value as GROUP BY and DISTINCT compare it in SQL: numbers by value, strings by their
/// bytes (SQLite's BINARY collation), to-one targets by key, nils together.
struct DictionaryGroupKey: Hashable {
    private enum Kind: Hashable { case null, integer(Int64), real(Double), text([UInt8]), key(Int64), other(String) }
    private let kind: Kind

    init(_ value: StoredValue) {
        switch value {
        case .null: kind = .null
        case .integer(let i): kind = .integer(i)
        case .bool(let b): kind = .integer(b ? 1 : 0)
        case .double(let d): kind = .real(d == 0 ? 0 : d)
        case .date(let d): kind = .real(d.timeIntervalSinceReferenceDate)
        case .string(let s): kind = .text(Array(s.utf8))
        case .objectID(let id): kind = .key(id.primaryKey)
        case .decimal(let d): kind = .other("\(d)")
        case .uuid(let u): kind = .other(u.uuidString)
        case .url(let u): kind = .other(u.absoluteString)
        case .data(let d): kind = .other(d.base64EncodedString())
        case .objectIDs(let ids): kind = .other(ids.map { "\($0.primaryKey)" }.joined(separator: ","))
        case .boxed(let box): kind = .other("\(box.value)")
        }
    }
}

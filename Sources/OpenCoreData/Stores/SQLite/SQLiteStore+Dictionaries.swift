import Foundation

// Dictionary fetches answered in SQL (``SQLiteDictionaryQuery``): one statement, no rows
// materialised, no objects registered.
extension SQLiteStore {
    /// The dictionaries of `request`, or nil when SQL would not give exactly the in-memory
    /// answer (then the context computes them from objects).
    func fetchDictionaries(_ plan: FetchPlan, _ request: DictionaryResultPlan) throws -> [[String: Any]]? {
        lock.lock(); defer { lock.unlock() }
        let db = try readConnection()
        let included = schema.entities.filter { plan.includes($0) && !$0.isAbstract }
        guard !included.isEmpty, let tablePlan = self.plan(for: plan.entity),
              let query = SQLiteDictionaryQuery(plan, request, table: tablePlan.table,
                                                entityNumbers: included.map { schema.number(of: $0) }, schema: schema) else { return nil }
        var result: [[String: Any]] = []
        do {
            let statement = try db.statement(query.sql)
            for (i, value) in query.bindings.enumerated() { statement.bind(value, at: Int32(i + 1)) }
            while try statement.step() {
                var row: [String: Any] = [:]
                for output in query.outputs {
                    switch output {
                    case let .attribute(name, column, attribute):
                        row[name] = SQLiteValueCoding.storedValue(from: statement, at: column, for: attribute).publicValue(for: attribute)
                    case let .toOne(name, key, entityColumn, destination):
                        guard !statement.isNull(at: key) else { continue }
                        var target = destination
                        if let entityColumn, !statement.isNull(at: entityColumn), let actual = self.plan(number: Int(statement.int64(at: entityColumn)))?.entity {
                            target = actual
                        }
                        row[name] = NSManagedObjectID(entity: target, store: self, primaryKey: statement.int64(at: key))
                    case let .aggregate(name, column, aggregate, decoding):
                        let stored = DictionaryResultPlan.convert(SQLiteValueCoding.storedValue(from: statement, at: column, for: decoding), to: aggregate.resultType)
                        row[name] = stored.publicValue(as: aggregate.resultType)
                    }
                }
                result.append(row)
            }
        } catch let error as SQLiteError {
            throw fetchError(error)
        }
        return result
    }
}

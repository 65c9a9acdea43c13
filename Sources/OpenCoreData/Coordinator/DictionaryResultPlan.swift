import Foundation

/// What a `.dictionaryResultType` fetch returns, resolved against the entity once: the
/// columns (`propertiesToFetch`), the groups (`propertiesToGroupBy`), the having predicate and
/// DISTINCT. The context's in-memory evaluation and a store's query (the SQLite store's
/// `SQLiteDictionaryQuery`) both work from this, so they agree on names, types and errors.
///
/// ```swift
/// let plan = try DictionaryResultPlan(request, entity: employee)
/// plan.columns.map(\.name)   // ["department", "total"]
/// plan.groupBy.map(\.name)   // ["department"]
/// ```
///
/// Apple raises for a malformed request; we throw `NSCoreDataError` naming the problem:
/// group-by without the dictionary result type, a fetched property that is neither grouped
/// nor an aggregate, unknown or to-many properties, unsupported expressions.
struct DictionaryResultPlan {
    /// A value read from each row: an attribute or to-one relationship of the entity, or one
    /// reached through to-one relationships (`department.name`).
    struct Value {
        /// The key in the result dictionary: the key path, or an expression description's name.
        let name: String
        /// The key path from the fetched entity, to compare group-by entries with columns.
        let keyPath: String
        /// The to-one relationships walked before `property`.
        let path: [NSRelationshipDescription]
        /// An `NSAttributeDescription` or a to-one `NSRelationshipDescription` (its value is
        /// the target's `NSManagedObjectID`, as in Apple's dictionaries).
        let property: NSPropertyDescription
        /// The row's own object ID (`"objectID"`, or an expression description of the evaluated
        /// object): `property` is then a to-one relationship to the fetched entity made for it.
        var isObjectID = false
        var attribute: NSAttributeDescription? { isObjectID ? nil : property as? NSAttributeDescription }

        /// The object ID of each row of `entity`, named `name`.
        static func objectID(of entity: NSEntityDescription, name: String) -> Value {
            let itself = NSRelationshipDescription()
            itself.name = "objectID"
            itself.maxCount = 1
            itself.destinationEntity = entity
            return Value(name: name, keyPath: "objectID", path: [], property: itself, isObjectID: true)
        }
    }

    /// The aggregate functions of `NSExpressionDescription` columns.
    enum Function: String {
        case count = "count:", sum = "sum:", average = "average:", min = "min:", max = "max:"
    }

    struct Aggregate {
        let name: String
        let function: Function
        let argument: Value
        /// The type of the value in the dictionary: `expressionResultType` when it is a number
        /// type and the function's is too, else the function's own type.
        let resultType: NSAttributeType
    }

    enum Column {
        case value(Value)
        case aggregate(Aggregate)

        var name: String {
            switch self {
            case .value(let v): return v.name
            case .aggregate(let a): return a.name
            }
        }
    }

    let columns: [Column]
    let groupBy: [Value]
    let having: NSPredicate?
    let distinct: Bool

    var isGrouped: Bool { !groupBy.isEmpty }
    /// Aggregates without group-by: the whole fetch is one group, one dictionary.
    var isSingleRow: Bool {
        !isGrouped && columns.contains { if case .aggregate = $0 { return true } else { return false } }
    }

    init<T>(_ request: NSFetchRequest<T>, entity: NSEntityDescription) throws {
        let entityName = entity.name ?? "?"
        func fail(_ message: String) -> NSError {
            CoreDataError.make(NSCoreDataError, "fetch (dictionary result) of '\(entityName)': \(message)")
        }
        func value(_ keyPath: String, name: String) throws -> Value {
            // Apple's "objectID" key: the row's object ID, unless the entity has such a property.
            if keyPath == "objectID" && entity.propertiesByName["objectID"] == nil { return .objectID(of: entity, name: name) }
            var current = entity
            var path: [NSRelationshipDescription] = []
            let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            for (i, component) in components.enumerated() {
                guard let property = current.propertiesByName[component] else {
                    throw fail("'\(keyPath)' names no property ('\(component)' is not a property of '\(current.name ?? "?")'). Known: \(current.propertiesByName.keys.sorted().joined(separator: ", ")).")
                }
                if property.isTransient || property is NSFetchedPropertyDescription {
                    throw fail("'\(keyPath)' is transient or a fetched property; only stored attributes and to-one relationships can be fetched as dictionary values.")
                }
                let last = i == components.count - 1
                if let relationship = property as? NSRelationshipDescription {
                    if relationship.isToMany {
                        throw fail("'\(keyPath)' goes through the to-many relationship '\(component)'; dictionary results take attributes and to-one relationships only.")
                    }
                    if last { return Value(name: name, keyPath: keyPath, path: path, property: relationship) }
                    guard let destination = relationship.destinationEntity else { throw fail("relationship '\(component)' has no destination entity.") }
                    path.append(relationship)
                    current = destination
                } else if property is NSAttributeDescription, last {
                    return Value(name: name, keyPath: keyPath, path: path, property: property)
                } else {
                    throw fail("'\(keyPath)' continues after the attribute '\(component)'.")
                }
            }
            throw fail("'\(keyPath)' is not a key path.")
        }
        /// A property description, key-path string or key-path expression description as a value.
        func valueEntry(_ entry: Any, role: String) throws -> Value? {
            switch entry {
            case let string as String:
                return try value(string, name: string)
            case let description as NSExpressionDescription:
                guard let expression = description.expression else { throw fail("the expression description '\(description.name)' has no expression.") }
                if case .keyPath(operand: .none, components: let components) = expression.node {
                    return try value(components.joined(separator: "."), name: description.name)
                }
                // The evaluated object: its object ID (Apple's `.objectIDAttributeType` description).
                if case .evaluatedObject = expression.node { return .objectID(of: entity, name: description.name) }
                return nil
            case let property as NSPropertyDescription:
                guard let own = entity.propertiesByName[property.name], own === property || own.entity === property.entity else {
                    throw fail("\(role) names '\(property.name)', which is not a property of '\(entityName)'.")
                }
                return try value(property.name, name: property.name)
            default:
                throw fail("\(role) holds \(type(of: entry)); use property names, NSPropertyDescriptions or NSExpressionDescriptions.")
            }
        }

        if request.havingPredicate != nil && (request.propertiesToGroupBy ?? []).isEmpty {
            throw fail("havingPredicate needs propertiesToGroupBy.")
        }
        groupBy = try (request.propertiesToGroupBy ?? []).map { entry in
            guard let v = try valueEntry(entry, role: "propertiesToGroupBy") else {
                throw fail("propertiesToGroupBy holds an aggregate expression; group by properties or key paths.")
            }
            return v
        }

        let entries: [Any] = request.propertiesToFetch ?? entity.allProperties.filter { p in
            !p.isTransient && (p is NSAttributeDescription || (p as? NSRelationshipDescription)?.isToMany == false)
        }
        var columns: [Column] = []
        for entry in entries {
            if let v = try valueEntry(entry, role: "propertiesToFetch") {
                columns.append(.value(v))
                continue
            }
            let description = entry as! NSExpressionDescription  // valueEntry returns nil only for these
            columns.append(.aggregate(try Self.aggregate(description, value: value, fail: fail)))
        }
        if !groupBy.isEmpty {
            let grouped = Set(groupBy.map(\.keyPath))
            for case let .value(v) in columns where !grouped.contains(v.keyPath) {
                throw fail("'\(v.name)' is fetched but neither in propertiesToGroupBy nor an aggregate. With GROUP BY, fetch only grouped properties and aggregate expressions.")
            }
        } else if columns.contains(where: { if case .aggregate = $0 { return true } else { return false } }),
                  columns.contains(where: { if case .value = $0 { return true } else { return false } }) {
            throw fail("aggregate expressions and plain properties are fetched together without propertiesToGroupBy; add the plain properties to propertiesToGroupBy.")
        }
        // Rows are sorted before grouping (as SQL's ORDER BY sees the entity's values), so a
        // sort key must be a key path of the entity; Apple raises for other keys, such as an
        // aggregate's name.
        for descriptor in request.sortDescriptors ?? [] where descriptor.comparator == nil {
            guard let key = descriptor.key else { continue }
            do { _ = try value(key, name: key) } catch {
                throw fail("the sort key '\(key)' is not an attribute or to-one key path of '\(entityName)' (results can't be sorted by an aggregate's name).")
            }
        }
        var seen = Set<String>()
        for column in columns where !seen.insert(column.name).inserted {
            throw fail("two fetched columns are named '\(column.name)'.")
        }
        self.columns = columns
        // Apple's having predicates name fetched columns as variables (`$count > 1`): each
        // becomes a key path to the column of that name.
        let columnVariables = Dictionary(columns.map { ($0.name, NSExpression(forKeyPath: $0.name) as Any) }, uniquingKeysWith: { a, _ in a })
        having = request.havingPredicate?.withSubstitutionVariables(columnVariables)
        distinct = request.returnsDistinctResults
    }

    /// Resolves `count:`/`sum:`/`average:`/`min:`/`max:` of one key path and its result type.
    private static func aggregate(_ description: NSExpressionDescription, value: (String, String) throws -> Value,
                                  fail: (String) -> NSError) throws -> Aggregate {
        guard let expression = description.expression,
              case .function(name: let name, target: .none, arguments: let arguments) = expression.node, let function = Function(rawValue: name) else {
            throw fail("the expression of '\(description.name)' is not supported; use a key path or count:, sum:, average:, min:, max: of a key path.")
        }
        guard arguments.count == 1, case .keyPath(operand: .none, components: let components) = arguments[0].node else {
            throw fail("'\(description.name)': \(name) takes one key path argument.")
        }
        let argument = try value(components.joined(separator: "."), description.name)
        let natural: NSAttributeType
        let type = argument.attribute?.attributeType
        switch function {
        case .count:
            natural = .integer64AttributeType
        case .sum:
            switch type {
            case .integer16AttributeType?, .integer32AttributeType?, .integer64AttributeType?, .booleanAttributeType?: natural = .integer64AttributeType
            case .doubleAttributeType?, .floatAttributeType?: natural = .doubleAttributeType
            case .decimalAttributeType?: natural = .decimalAttributeType
            default: throw fail("'\(description.name)': sum: needs a number attribute, not '\(argument.keyPath)'.")
            }
        case .average:
            switch type {
            case .integer16AttributeType?, .integer32AttributeType?, .integer64AttributeType?, .booleanAttributeType?,
                 .doubleAttributeType?, .floatAttributeType?: natural = .doubleAttributeType
            case .decimalAttributeType?: natural = .decimalAttributeType
            default: throw fail("'\(description.name)': average: needs a number attribute, not '\(argument.keyPath)'.")
            }
        case .min, .max:
            switch type {
            case .integer16AttributeType?, .integer32AttributeType?, .integer64AttributeType?, .booleanAttributeType?,
                 .doubleAttributeType?, .floatAttributeType?, .decimalAttributeType?, .dateAttributeType?, .stringAttributeType?:
                natural = type!
            default: throw fail("'\(description.name)': \(name) needs a number, date or string attribute, not '\(argument.keyPath)'.")
            }
        }
        let declared = description.expressionResultType
        let resultType = isNumber(natural) && isNumber(declared) ? declared : natural
        return Aggregate(name: description.name, function: function, argument: argument, resultType: resultType)
    }

    static func isNumber(_ type: NSAttributeType) -> Bool {
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType,
             .doubleAttributeType, .floatAttributeType, .decimalAttributeType: return true
        default: return false
        }
    }

    // MARK: Values shared by every evaluator

    /// `value` as `type` (a number type): integers truncate toward zero, as SQLite's integer
    /// read of a real does, so both evaluators give the same number.
    static func convert(_ value: StoredValue, to type: NSAttributeType) -> StoredValue {
        func integer(_ d: Double) -> StoredValue {
            guard !d.isNaN else { return .integer(0) }
            return .integer(Int64(exactly: d.rounded(.towardZero)) ?? (d < 0 ? .min : .max))
        }
        switch (value, type) {
        case (.null, _): return .null
        case (.integer, .integer16AttributeType), (.integer, .integer32AttributeType), (.integer, .integer64AttributeType): return value
        case (.double(let d), .integer16AttributeType), (.double(let d), .integer32AttributeType), (.double(let d), .integer64AttributeType): return integer(d)
        case (.bool(let b), .integer16AttributeType), (.bool(let b), .integer32AttributeType), (.bool(let b), .integer64AttributeType): return .integer(b ? 1 : 0)
        case (.decimal(let d), .integer16AttributeType), (.decimal(let d), .integer32AttributeType), (.decimal(let d), .integer64AttributeType):
            return integer(NSDecimalNumber(decimal: d).doubleValue)
        case (.integer(let i), .doubleAttributeType), (.integer(let i), .floatAttributeType): return .double(Double(i))
        case (.bool(let b), .doubleAttributeType), (.bool(let b), .floatAttributeType): return .double(b ? 1 : 0)
        case (.decimal(let d), .doubleAttributeType), (.decimal(let d), .floatAttributeType): return .double(NSDecimalNumber(decimal: d).doubleValue)
        case (.integer(let i), .decimalAttributeType): return .decimal(Decimal(i))
        case (.double(let d), .decimalAttributeType): return .decimal(Decimal(d))
        case (.bool(let b), .decimalAttributeType): return .decimal(b ? 1 : 0)
        case (.integer(let i), .booleanAttributeType): return .bool(i != 0)
        case (.double(let d), .booleanAttributeType): return .bool(d != 0)
        default: return value
        }
    }

    /// The dictionary form of a fetched value.
    static func publicValue(_ value: StoredValue, of property: NSPropertyDescription) -> Any? {
        if let attribute = property as? NSAttributeDescription { return value.publicValue(for: attribute) }
        if case .objectID(let id) = value { return id }
        return nil
    }
}

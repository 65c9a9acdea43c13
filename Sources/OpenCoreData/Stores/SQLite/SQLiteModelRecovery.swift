import CSQLite
import Foundation

extension NSManagedObjectModel {
    /// A model rebuilt from the tables of a Core Data SQLite store, for opening a store whose
    /// model you don't have — read-only — and looking at its objects.
    ///
    /// ```swift
    /// let url = URL(fileURLWithPath: "netusage.sqlite")
    /// let model = try NSManagedObjectModel.recovered(fromSQLiteStoreAt: url)
    /// let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
    /// try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url,
    ///                                    options: [NSReadOnlyPersistentStoreOption: true])
    /// for warning in model.loadingWarnings { print("note:", warning) }   // what was guessed
    /// ```
    ///
    /// An OpenCoreData addition (Apple's framework has no such API).
    ///
    /// Stores written by framework version 1044 and later keep their model in `Z_MODELCACHE`;
    /// that model is used when it decodes and fits the tables (see `SQLiteModelCache`: names,
    /// types, inheritance, relationships with inverses and order, exactly as written; fetched
    /// properties, constraints and indexes are left out). Pass `usingModelCache: false`, or
    /// open an older store (no cache), and the model is rebuilt from the schema instead. What
    /// the file says is used as it is; what it doesn't say is guessed and listed in
    /// ``loadingWarnings``:
    /// - Entities and inheritance: `Z_PRIMARYKEY` (`Z_ENT`, `Z_NAME`, `Z_SUPER`); history
    ///   tracking's entities (16001+) are left out. An entity Apple's migration renamed keeps
    ///   its old `Z_NAME`; the name in the metadata's version hashes is used, with the old one
    ///   as renaming identifier.
    /// - Attributes: the columns of the hierarchy's table, all on the root entity (the file
    ///   doesn't say which subentity declared a column). Names are the column name without its
    ///   `Z`, lowercased (`ZFIRSTNAME` → `firstname`): SQLite keeps no case. Types from the
    ///   column type: INTEGER → Integer 64 (a Boolean reads as 0/1), FLOAT → Double,
    ///   TIMESTAMP → Date, DECIMAL → Decimal, VARCHAR → String, BLOB → Binary Data (UUIDs and
    ///   transformables come back as bytes).
    /// - To-one relationships: an INTEGER column with Apple's foreign-key index
    ///   (`ZTABLE_ZCOLUMN_INDEX`). Its destination is the entity named in its `Z<n>_` companion
    ///   column, else the entity whose name ends like the column (`ZHASPROCESS` → Process), else
    ///   the one table whose `Z_PK`s hold every value. A column whose destination stays unknown
    ///   is read as an Integer 64 attribute. Each to-one gets a to-many inverse named
    ///   `<name>Inverse` on its destination (`<name>InverseFrom<Entity>` when several entities
    ///   have a to-one of that name into it), ordered when the file has a `Z_FOK_<NAME>` column.
    /// - Many-to-many relationships: each join table `Z_<n><NAME>` gives a pair of to-many
    ///   relationships (ordered when it has the `Z_FOK_` column).
    /// - Version hashes and identifiers are the store's own, so the model matches the store:
    ///   ``appleEntityVersionHashesByName`` holds the store's hashes.
    ///
    /// The file is opened read-only and left unchanged (but, as with any SQLite reader, a
    /// `-wal` beside it may be checkpointed when it is closed: copy a store you must keep
    /// byte for byte).
    ///
    /// - Throws: `NSFileReadCorruptFileError` (259, with `NSSQLiteErrorDomain`) when `url` is not
    ///   a SQLite database or is damaged; `NSPersistentStoreOpenError` (134080) when there is no
    ///   file or it is not a Core Data store (no `Z_PRIMARYKEY`/`Z_METADATA`).
    public static func recovered(fromSQLiteStoreAt url: URL, usingModelCache: Bool = true) throws -> NSManagedObjectModel {
        let model = try SQLiteModelRecovery(url: url, usesModelCache: usingModelCache).recover()
        model.isRecoveredFromStore = true
        return model
    }
}

/// Rebuilds a model from a store's schema; see ``NSManagedObjectModel/recovered(fromSQLiteStoreAt:)``.
struct SQLiteModelRecovery {
    let url: URL
    let usesModelCache: Bool

    private struct Column {
        let name: String
        let type: String
    }

    private func failure(_ message: String, _ underlying: Error? = nil) -> NSError {
        var info: [String: Any] = [NSFilePathErrorKey: url.path]
        if let underlying { info[NSUnderlyingErrorKey] = underlying as NSError }
        return CoreDataError.make(NSPersistentStoreOpenError, message, info)
    }

    func recover() throws -> NSManagedObjectModel {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw failure("There is no store at \(path). Check the path.")
        }
        let db: SQLiteConnection
        do { db = try SQLiteConnection(path: path, readOnly: true) } catch {
            throw failure("SQLite can't open \(path): \(error).", error)
        }
        defer { db.close() }
        let tables: Set<String>
        do { tables = try db.tableNames() } catch {
            throw SQLiteFileSoundness.corruptFileError(path: path, message: "The file at \(path) is not a SQLite database, or it is corrupt: \(error).",
                                                       sqliteCode: SQLiteFileSoundness.sqliteCode(of: error), underlying: error)
        }
        guard tables.contains("Z_PRIMARYKEY"), tables.contains("Z_METADATA") else {
            throw failure("The file at \(path) is a SQLite database but not a Core Data store (it has no Z_PRIMARYKEY or Z_METADATA table).")
        }
        do { return try recover(db, tables: tables) } catch let error as SQLiteError {
            throw failure("Can't read the schema of the store at \(path): \(error).", error)
        }
    }

    private func recover(_ db: SQLiteConnection, tables: Set<String>) throws -> NSManagedObjectModel {
        var warnings: [String] = []
        let metadata = try db.query("SELECT Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1") { $0.blob(at: 0) }
            .first.flatMap { $0 }.flatMap(SQLiteMetadata.decode) ?? [:]
        let hashes = metadata[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]
        func finish(_ model: NSManagedObjectModel) -> NSManagedObjectModel {
            if !hashes.isEmpty { model.appleEntityVersionHashesByName = hashes }
            if let identifiers = metadata[NSStoreModelVersionIdentifiersKey] as? [Any] {
                model.versionIdentifiers = Set(identifiers.compactMap { $0 as? AnyHashable })
            }
            model.loadingWarnings = warnings
            return model
        }

        if usesModelCache, tables.contains("Z_MODELCACHE"),
           let blob = try db.query("SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1", [], { $0.blob(at: 0) }).first ?? nil {
            do {
                let model = try SQLiteModelCache.model(from: blob)
                // Used only if the store can read its tables with it, as it will on open.
                let numbers = Dictionary(try db.query("SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY") { ($0.text(at: 0) ?? "", Int($0.int64(at: 1))) }, uniquingKeysWith: { a, _ in a })
                let missing = try StoreSchema(model: model, entityNumbers: numbers, existingTables: tables).missingNames(in: db)
                guard missing.isEmpty else { throw SQLiteModelCacheError("the store's tables lack \(missing.joined(separator: ", "))") }
                warnings.append("The model was read from the store's Z_MODELCACHE.")
                warnings += model.loadingWarnings
                return finish(model)
            } catch let error as StoreSchemaError {
                warnings.append("Z_MODELCACHE holds a model the SQLite store can't lay out (\(error.message)); the model was rebuilt from the schema instead.")
            } catch {
                warnings.append("Z_MODELCACHE could not be used (\(error)); the model was rebuilt from the schema instead.")
            }
        }

        // Entities and their hierarchy, from Z_PRIMARYKEY (history entities 16001+ excluded).
        let rows = try db.query("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT") {
            (Int($0.int64(at: 0)), $0.text(at: 1) ?? "", Int($0.int64(at: 2)))
        }
        var byNumber: [Int: NSEntityDescription] = [:]
        var tableNameByNumber: [Int: String] = [:]
        // Apple's migration leaves a renamed entity's old Z_NAME: when exactly one name differs
        // from the metadata's, the metadata's is the entity's name now.
        let storedNames = Set(rows.map(\.1))
        let unmatchedRows = rows.filter { !hashes.isEmpty && hashes[$0.1] == nil }
        let unmatchedHashes = Set(hashes.keys).subtracting(storedNames)
        for (number, name, _) in rows {
            let entity = NSEntityDescription(name: name)
            if unmatchedRows.count == 1, unmatchedHashes.count == 1, unmatchedRows[0].0 == number, let newName = unmatchedHashes.first {
                entity.name = newName
                entity.renamingIdentifier = name
                warnings.append("Z_PRIMARYKEY names entity \(number) '\(name)'; the metadata calls it '\(newName)' (renamed by a migration), which is used.")
            }
            byNumber[number] = entity
        }
        for (number, _, superNumber) in rows where superNumber != 0 {
            guard let entity = byNumber[number], let superentity = byNumber[superNumber] else { continue }
            superentity.subentities = superentity.subentities + [entity]
        }
        func root(_ number: Int) -> Int {
            var n = number
            while let s = rows.first(where: { $0.0 == n })?.2, s != 0, byNumber[s] != nil { n = s }
            return n
        }
        for (number, name, _) in rows where root(number) == number { tableNameByNumber[number] = "Z" + name.uppercased() }

        let indexes = Set(try db.query("SELECT name FROM sqlite_master WHERE type = 'index'") { $0.text(at: 0) ?? "" })
        var properties: [Int: [NSPropertyDescription]] = [:]
        func add(_ property: NSPropertyDescription, to number: Int) {
            // A name already used in the hierarchy gets a trailing underscore.
            let hierarchy = rows.filter { root($0.0) == root(number) }.map(\.0)
            while hierarchy.contains(where: { (properties[$0] ?? []).contains { $0.name == property.name } }) { property.name += "_" }
            properties[number, default: []].append(property)
        }
        var toOnes: [(owner: Int, relationship: NSRelationshipDescription, table: String, column: String)] = []

        for (rootNumber, table) in tableNameByNumber.sorted(by: { $0.key < $1.key }) {
            guard tables.contains(table) else {
                warnings.append("Entity \(byNumber[rootNumber]?.name ?? "?") has no table \(table); its entity has no properties.")
                continue
            }
            let columns = try db.query("SELECT name, type FROM pragma_table_info(?)", [.text(table)]) { Column(name: $0.text(at: 0) ?? "", type: ($0.text(at: 1) ?? "").uppercased()) }
            let names = Set(columns.map(\.name))
            for column in columns where !["Z_PK", "Z_ENT", "Z_OPT"].contains(column.name) {
                // Companion (Z<n>_NAME) and order (Z_FOK_NAME) columns belong to a to-one.
                if column.name.range(of: "^Z[0-9]+_", options: .regularExpression) != nil || column.name.hasPrefix("Z_FOK_") { continue }
                guard column.name.hasPrefix("Z"), column.name.count > 1 else {
                    warnings.append("\(table).\(column.name) does not follow Apple's column naming and is left out.")
                    continue
                }
                let upper = String(column.name.dropFirst())
                let propertyName = upper.lowercased()
                if column.type.contains("INT"), indexes.contains("\(table)_\(column.name)_INDEX") {
                    if let destination = try destination(of: column.name, in: table, rootNumber: rootNumber, columns: names, db: db, rows: rows, byNumber: byNumber, tables: tableNameByNumber) {
                        let relationship = NSRelationshipDescription()
                        relationship.name = propertyName
                        relationship.destinationEntity = byNumber[destination]
                        relationship.maxCount = 1
                        add(relationship, to: rootNumber)
                        toOnes.append((rootNumber, relationship, table, column.name))
                        continue
                    }
                    warnings.append("\(table).\(column.name) has an index named like a to-one relationship's foreign key (Apple names an indexed attribute's index the same way), but no destination can be told from the file; it is read as the Integer 64 attribute '\(propertyName)'.")
                }
                add(NSAttributeDescription(name: propertyName, type: Self.attributeType(column.type)), to: rootNumber)
            }
        }

        // Inverses of the to-ones, so that a destination lists its sources.
        for (owner, relationship, table, column) in toOnes {
            guard let destination = relationship.destinationEntity, let number = byNumber.first(where: { $0.value === destination })?.key else { continue }
            let inverse = NSRelationshipDescription()
            // `<name>Inverse`, or `<name>InverseFrom<Entity>` when several entities have a
            // to-one of that name into the same hierarchy (netusage: six `hasapp`s into App).
            let sameName = toOnes.filter { $0.relationship.name == relationship.name && $0.relationship.destinationEntity?.rootEntity === destination.rootEntity }
            inverse.name = relationship.name + "Inverse" + (sameName.count > 1 ? "From" + (byNumber[owner]?.name ?? "") : "")
            inverse.destinationEntity = byNumber[owner]
            inverse.maxCount = 0
            let order = "Z_FOK_" + column.dropFirst()
            inverse.isOrdered = (try? db.columnNames(of: table))?.contains(order) ?? false
            inverse.inverseRelationship = relationship
            relationship.inverseRelationship = inverse
            add(inverse, to: number)
        }

        // Many-to-many join tables: Z_<n><PRIMARY> (Z_<n><SECONDARY>, Z_<m><PRIMARY>[, Z_FOK_...]).
        for table in tables.sorted() {
            guard let match = table.range(of: "^Z_[0-9]+", options: .regularExpression) else { continue }
            guard let ownerNumber = Int(table[match].dropFirst(2)), byNumber[ownerNumber] != nil else { continue }
            let primaryName = String(table[match.upperBound...])
            let columns = try db.columnNames(of: table)
            func split(_ column: String) -> (Int, String)? {
                guard let m = column.range(of: "^Z_[0-9]+", options: .regularExpression), let n = Int(column[m].dropFirst(2)) else { return nil }
                return (n, String(column[m.upperBound...]))
            }
            let pairs = columns.filter { !$0.hasPrefix("Z_FOK_") }.compactMap(split)
            guard pairs.count == 2, let members = pairs.first(where: { $0.1 == primaryName && byNumber[$0.0] != nil }),
                  let owners = pairs.first(where: { !($0.0 == members.0 && $0.1 == members.1) }), owners.0 == ownerNumber else {
                warnings.append("Table \(table) looks like a many-to-many join table but its columns (\(columns.joined(separator: ", "))) don't follow Apple's naming; it is left out.")
                continue
            }
            let primary = NSRelationshipDescription()
            primary.name = primaryName.lowercased()
            primary.destinationEntity = byNumber[members.0]
            primary.maxCount = 0
            primary.isOrdered = columns.contains("Z_FOK_\(members.0)\(primaryName)")
            let secondary = NSRelationshipDescription()
            secondary.name = owners.1.lowercased()
            secondary.destinationEntity = byNumber[ownerNumber]
            secondary.maxCount = 0
            secondary.isOrdered = columns.contains("Z_FOK_\(ownerNumber)\(owners.1)")
            primary.inverseRelationship = secondary
            secondary.inverseRelationship = primary
            add(primary, to: ownerNumber)
            add(secondary, to: members.0)
        }

        for (number, entity) in byNumber { entity.properties = properties[number] ?? [] }
        let model = NSManagedObjectModel()
        model.entities = rows.compactMap { byNumber[$0.0] }
        return finish(model)
    }

    /// The entity number a foreign-key column points to, or nil when the file doesn't tell.
    private func destination(of column: String, in table: String, rootNumber: Int, columns: Set<String>, db: SQLiteConnection,
                             rows: [(Int, String, Int)], byNumber: [Int: NSEntityDescription], tables: [Int: String]) throws -> Int? {
        let upper = String(column.dropFirst())
        // 1. The companion column Z<n>_NAME names the destination (it has subentities).
        for (number, _, _) in rows where columns.contains("Z\(number)_\(upper)") { return number }
        // 2. Entity names that end like the column: ZHASPROCESS → Process, ZEXTRA in
        //    ZKIKCHAT → KikChatExtra (longest common ending; then a whole-name match; then the
        //    owner's name followed by the column's).
        let ownerName = (byNumber[rootNumber]?.name ?? "").uppercased()
        func commonSuffix(_ a: String, _ b: String) -> Int { zip(a.reversed(), b.reversed()).prefix { $0 == $1 }.count }
        let scored = rows.map { row -> (number: Int, score: (Int, Int, Int)) in
            let name = (byNumber[row.0]?.name ?? row.1).uppercased()
            let suffix = commonSuffix(upper, name)
            return (row.0, (suffix, suffix == name.count ? 1 : 0, name == ownerName + upper ? 1 : 0))
        }.filter { $0.score.0 >= 4 || ($0.score.0 >= 3 && $0.score.1 == 1) }
        if let best = scored.max(by: { $0.score < $1.score }) {
            let tied = scored.filter { $0.score == best.score }
            if tied.count == 1 { return best.number }
        }
        // 3. The only table whose Z_PKs include every value of the column.
        let t = SQLiteConnection.quoted(table), c = SQLiteConnection.quoted(column)
        let nonNull = try db.query("SELECT COUNT(*) FROM \(t) WHERE \(c) IS NOT NULL") { $0.int64(at: 0) }.first ?? 0
        guard nonNull > 0 else { return nil }
        var candidates: [Int] = []
        for (number, target) in tables.sorted(by: { $0.key < $1.key }) {
            guard (try? db.columnNames(of: target))?.isEmpty == false else { continue }
            let outside = try db.query("SELECT COUNT(*) FROM \(t) WHERE \(c) IS NOT NULL AND \(c) NOT IN (SELECT Z_PK FROM \(SQLiteConnection.quoted(target)))") { $0.int64(at: 0) }.first ?? 1
            if outside == 0 { candidates.append(number) }
        }
        return candidates.count == 1 ? candidates[0] : nil
    }

    /// The attribute type of a column's declared type (Apple's: INTEGER, FLOAT, TIMESTAMP,
    /// DECIMAL, VARCHAR, BLOB).
    static func attributeType(_ declared: String) -> NSAttributeType {
        if declared.contains("INT") { return .integer64AttributeType }
        if declared.contains("FLOAT") || declared.contains("REAL") || declared.contains("DOUBLE") { return .doubleAttributeType }
        if declared.contains("TIMESTAMP") || declared.contains("DATE") { return .dateAttributeType }
        if declared.contains("DECIMAL") || declared.contains("NUMERIC") { return .decimalAttributeType }
        if declared.contains("CHAR") || declared.contains("TEXT") || declared.contains("CLOB") { return .stringAttributeType }
        return .binaryDataAttributeType
    }
}

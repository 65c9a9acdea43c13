import OpenCoreData

/// `ocd migrate <store.sqlite> --from <old model> --to <new model>`: migrates a SQLite store
/// made with the old Xcode model to the new one (lightweight migration), then prints what
/// changed and how many records each entity holds.
///
/// ```
/// $ ocd migrate Company.sqlite --from "Company.xcdatamodeld/Company.xcdatamodel" --to "Company.xcdatamodeld/Company 2.xcdatamodel"
/// Migrating Company.sqlite
/// Changes
///   entity Badge removed
///   entity Department renamed Division
///   Employee: attribute nickname added, attribute email removed
/// Records
///   Division    2
///   Employee    3
/// Migrated: the store's metadata now carries OpenCoreData's version hashes of the new model (pass --to-version-info for Apple's) for 2 entities.
/// ```
///
/// The migration is the one `addPersistentStore` runs with `NSMigratePersistentStoresAutomaticallyOption`
/// and `NSInferMappingModelAutomaticallyOption`: all or nothing, the original store is left as it
/// was when anything fails.
enum MigrateCommand {
    static let usage = """
        usage: ocd migrate <store.sqlite> --from <old .xcdatamodeld/.xcdatamodel> --to <new .xcdatamodeld/.xcdatamodel>
                           [--from-version-info <.momd or VersionInfo.plist>] [--to-version-info <.momd or VersionInfo.plist>]
          --from-version-info, --to-version-info: the compiled model (.momd) whose VersionInfo.plist holds
            Apple's version hashes for that model version. With them, a store Apple's framework wrote is
            recognised by its hashes, and the migrated store carries Apple's hashes of the new version,
            so Apple's framework opens it. Without them, a store Apple wrote is matched to --from by its
            tables and columns.
        """

    /// Returns the exit status: 0 migrated (or nothing to do), 1 the migration failed (the store
    /// is unchanged), 2 wrong arguments.
    static func run(_ arguments: [String]) -> Int32 {
        var store: String?, from: String?, to: String?, fromInfo: String?, toInfo: String?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--from": from = rest.popFirst()
            case "--to": to = rest.popFirst()
            case "--from-version-info": fromInfo = rest.popFirst()
            case "--to-version-info": toInfo = rest.popFirst()
            default:
                if store != nil || argument.hasPrefix("--") {
                    ModelCommand.printError("ocd migrate: unexpected argument '\(argument)'\n\(usage)")
                    return 2
                }
                store = argument
            }
        }
        guard let store, let from, let to else {
            ModelCommand.printError(usage)
            return 2
        }
        let url = URL(fileURLWithPath: store)
        let source: NSManagedObjectModel, destination: NSManagedObjectModel
        do {
            source = try NSManagedObjectModel.load(contentsOf: URL(fileURLWithPath: from), versionInfo: fromInfo.map { URL(fileURLWithPath: $0) })
            destination = try NSManagedObjectModel.load(contentsOf: URL(fileURLWithPath: to), versionInfo: toInfo.map { URL(fileURLWithPath: $0) })
        } catch {
            ModelCommand.printError("ocd migrate: \(error.localizedDescription)")
            return 1
        }
        print("Migrating \(store)")
        do {
            let before = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
            if destination.isConfiguration(withName: nil, compatibleWithStoreMetadata: before) {
                print("The store already uses the new model; nothing to migrate.")
                return 0
            }
            let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: destination)
            let added = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: [
                NSMigratePersistentStoresAutomaticallyOption: true,
                NSInferMappingModelAutomaticallyOption: true,
                OCDMigrationSourceModelsOption: [source],
            ])
            print("Changes")
            let changes = describeChanges(mapping, source: source, destination: destination)
            print(changes.isEmpty ? "  none in stored data" : changes.map { "  " + $0 }.joined(separator: "\n"))
            print("Records")
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            let names = destination.entities.compactMap(\.name).sorted()
            let width = names.map(\.count).max() ?? 0
            try context.performAndWait {
                for name in names {
                    let request = NSFetchRequest<NSManagedObject>(entityName: name)
                    request.includesSubentities = false
                    let count = try context.count(for: request)
                    print("  \(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(count)")
                }
            }
            try coordinator.remove(added)
            // Success is claimed only for work that was done: the store's metadata must now name
            // the new model version.
            let after = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
            let hashes = after[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]
            guard destination.isConfiguration(withName: nil, compatibleWithStoreMetadata: after),
                  NSDictionary(dictionary: hashes) != NSDictionary(dictionary: before[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]) else {
                ModelCommand.printError("ocd migrate: the store was not rewritten: its metadata still names the model version it was made with (entities \(hashes.keys.sorted().joined(separator: ", "))). Check that --from is the model version that made the store.")
                return 1
            }
            let apple = destination.appleEntityVersionHashesByName == hashes ? "Apple's version hashes of the new model (from its VersionInfo.plist)" : "OpenCoreData's version hashes of the new model (pass --to-version-info for Apple's)"
            print("Migrated: the store's metadata now carries \(apple) for \(hashes.count) entities.")
            return 0
        } catch {
            let e = error as NSError
            ModelCommand.printError("ocd migrate: \(e.localizedDescription) (\(e.domain) \(e.code))")
            return 1
        }
    }

    /// One line per change: entities added, removed and renamed, then per entity its own
    /// properties added, removed and renamed.
    static func describeChanges(_ mapping: NSMappingModel, source: NSManagedObjectModel, destination: NSManagedObjectModel) -> [String] {
        var lines: [String] = []
        for m in mapping.entityMappings {
            switch m.mappingType {
            case .addEntityMappingType: lines.append("entity \(m.destinationEntityName ?? "?") added")
            case .removeEntityMappingType: lines.append("entity \(m.sourceEntityName ?? "?") removed")
            default:
                if m.sourceEntityName != m.destinationEntityName {
                    lines.append("entity \(m.sourceEntityName ?? "?") renamed \(m.destinationEntityName ?? "?")")
                }
            }
        }
        for m in mapping.entityMappings where m.mappingType == .transformEntityMappingType {
            guard let d = m.destinationEntityName.flatMap({ destination.entitiesByName[$0] }),
                  let s = m.sourceEntityName.flatMap({ source.entitiesByName[$0] }) else { continue }
            let own = Set(d.properties.map(\.name))
            let propertyMappings = ((m.attributeMappings ?? []) + (m.relationshipMappings ?? [])).filter { own.contains($0.name ?? "") }
            var parts: [String] = []
            for p in propertyMappings {
                let kind = d.relationshipsByName[p.name ?? ""] != nil ? "relationship" : "attribute"
                if p.sourceName == nil { parts.append("\(kind) \(p.name ?? "?") added") }
                else if p.isRename { parts.append("\(kind) \(p.sourceName!) renamed \(p.name ?? "?")") }
            }
            let carried = Set(((m.attributeMappings ?? []) + (m.relationshipMappings ?? [])).compactMap(\.sourceName))
            for p in s.properties where !p.isTransient && !carried.contains(p.name) {
                parts.append("\(p is NSRelationshipDescription ? "relationship" : "attribute") \(p.name) removed")
            }
            if !parts.isEmpty { lines.append("\(d.name ?? "?"): \(parts.joined(separator: ", "))") }
        }
        return lines
    }
}

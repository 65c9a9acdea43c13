import OpenCoreData

/// `ocd demo`: a guided tour of the object graph, printed in plain words.
enum Demo {
    static func run() throws {
        func say(_ text: String) { print(text) }
        func step(_ n: Int, _ title: String) { print("\n\(n). \(title)") }

        step(1, "Describe the data: a model with two entities.")
        let model = DemoModel.make()
        for entity in model.entities.sorted(by: { $0.name! < $1.name! }) {
            let properties = entity.properties.map { p -> String in
                if let r = p as? NSRelationshipDescription {
                    return "\(p.name) → \(r.isToMany ? "many " : "")\(r.destinationEntity!.name!) (delete rule: \(r.deleteRule))"
                }
                return p.name
            }
            say("   \(entity.name!): \(properties.joined(separator: ", "))")
        }

        step(2, "Build the stack: a container with a SQLite store in the default directory.")
        let container = NSPersistentContainer(name: "Company", managedObjectModel: model)
        let storeURL = container.persistentStoreDescriptions[0].url!
        // Start each tour from an empty store, so it reads the same every time.
        try container.persistentStoreCoordinator.destroyPersistentStore(at: storeURL, ofType: NSSQLiteStoreType)
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        let context = container.newBackgroundContext()
        context.undoManager = UndoManager()
        say("   Store: \(container.persistentStoreCoordinator.persistentStores.map(\.type).joined()) at \(storeURL.path)")

        try context.performAndWait {
            step(3, "Insert objects and relate them. Core Data keeps inverses in step.")
            let engineering = Department(context: context)
            engineering.name = "Engineering"
            let sales = Department(context: context)
            sales.name = "Sales"
            let fiona = Employee(context: context)
            fiona.name = "Fiona Smith"
            fiona.salary = 5200
            fiona.department = engineering
            let raj = Employee(context: context)
            raj.name = "Raj Patel"
            raj.salary = 4800
            engineering.employees.insert(raj)
            say("   Set fiona.department = Engineering and added Raj to Engineering's employees.")
            say("   Engineering's employees: \(names(engineering.employees)); raj.department = \(raj.department?.name ?? "nil")")
            say("   New objects have temporary IDs: \(fiona.objectID.isTemporaryID)")

            step(4, "Validate: a negative salary and a missing name are caught at save.")
            let broken = Employee(context: context)
            broken.salary = -1
            do {
                try context.save()
            } catch let error as NSError {
                say("   save() failed with code \(error.code) (NSValidationMultipleErrorsError = \(NSValidationMultipleErrorsError)):")
                for detail in (error.userInfo[NSDetailedErrorsKey] as? [NSError]) ?? [error] {
                    say("   - \(detail.userInfo[NSValidationKeyErrorKey] ?? "?"): \(detail.localizedDescription) [code \(detail.code)]")
                }
            }
            say("   Nothing was written; fix the object and save again.")
            context.delete(broken)
            try context.save()
            say("   Saved. Fiona's permanent ID: \(fiona.objectID.uriRepresentation().absoluteString)")

            step(5, "Undo: rename Fiona, then undo the change.")
            fiona.name = "Fiona Jones"
            context.processPendingChanges()
            say("   Renamed to \(fiona.name!); undo manager can undo: \(context.undoManager!.canUndo)")
            context.undoManager!.undo()
            say("   After undo: \(fiona.name!)")

            step(6, "Move Fiona to Sales through mutableSetValue(forKey:), as the seed shows.")
            sales.mutableSetValue(forKey: "employees").add(fiona)
            say("   fiona.department = \(fiona.department!.name!); Engineering: \(names(engineering.employees)); Sales: \(names(sales.employees))")
            try context.save()

            step(7, "Fetch with a predicate and a sort order.")
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.predicate = NSPredicate(format: "salary > %d", 5000)
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            say("   Employees earning over 5000: \(try context.fetch(request).map { $0.name! })")
            say("   Average salary by key path: \(engineering.value(forKeyPath: "employees.@avg.salary") ?? "none") (Engineering)")

            step(8, "Delete a department: its employees cascade away with it.")
            context.delete(engineering)
            try context.save()
            say("   Employees left: \(try context.count(for: NSFetchRequest<Employee>(entityName: "Employee"))) (Fiona, in Sales)")
        }

        step(9, "Another context sees the saved data (read back from the file).")
        let other = container.newBackgroundContext()
        try other.performAndWait {
            let departments = try other.fetch(NSFetchRequest<Department>(entityName: "Department"))
            say("   Departments: \(departments.map { "\($0.name!) (\($0.employees.count) employee\($0.employees.count == 1 ? "" : "s"))" })")
        }
        print("\nDone.")
    }

    private static func names(_ employees: Set<Employee>) -> [String] { employees.compactMap(\.name).sorted() }
}

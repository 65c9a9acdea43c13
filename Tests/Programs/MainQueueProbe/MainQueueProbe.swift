import OpenCoreData

// The three ways a program uses a main-queue context, run by the two probe programs beside this
// folder: one that calls `dispatchMain()` and one with an async `main`. In both, main-queue blocks
// and `@MainActor` code run on a dispatch worker thread, not on thread 0, which is what
// `MainQueueProgramTests` checks the context tolerates. Each step prints one line; the last
// line is "all passed", then the program exits 0. Any failure exits non-zero.

/// A container with one in-memory store of one entity, `Item` (`name: String`).
public func makeProbeContainer() -> NSPersistentContainer {
    let item = NSEntityDescription()
    item.name = "Item"
    let name = NSAttributeDescription()
    name.name = "name"
    name.attributeType = .stringAttributeType
    item.properties = [name]
    let model = NSManagedObjectModel()
    model.entities = [item]
    let container = NSPersistentContainer(name: "MainQueueProbe", managedObjectModel: model)
    let description = NSPersistentStoreDescription()
    description.type = NSInMemoryStoreType
    container.persistentStoreDescriptions = [description]
    container.loadPersistentStores { _, error in
        if let error { fail("loading the store: \(error)") }
    }
    return container
}

/// Stops the program with a non-zero status, naming what went wrong.
public func fail(_ message: String) -> Never {
    print("FAILED: \(message)")
    exit(1)
}

/// Inserts an item named `name` and saves, in `context` as it is (the caller is on its queue).
public func insertAndSave(_ name: String, in context: NSManagedObjectContext) {
    let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
    item.setValue(name, forKey: "name")
    do { try context.save() } catch { fail("saving \(name): \(error)") }
}

/// The number of saved items, read in `context` as it is.
public func itemCount(in context: NSManagedObjectContext) -> Int {
    do { return try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Item")) } catch { fail("counting: \(error)") }
}

/// Runs the three patterns one after another on the main queue, then exits 0. A watchdog ends a
/// program that hangs (a deadlock in `performAndWait`) with status 2.
public func runMainQueuePatterns(_ context: NSManagedObjectContext) {
    DispatchQueue.global().asyncAfter(deadline: .now() + 20) {
        print("FAILED: timed out (a deadlock?)")
        exit(2)
    }
    // 1. `perform` on a main-queue context: the block runs on the main queue.
    context.perform {
        insertAndSave("perform", in: context)
        print("perform: ok")
        // 2. `performAndWait` from a main-queue block must run inline, not wait on its own queue.
        DispatchQueue.main.async {
            context.performAndWait { insertAndSave("performAndWait", in: context) }
            print("performAndWait from the main queue: ok")
            // 3. `@MainActor` code after an `await`, using the context directly.
            Task { @MainActor in
                try? await Task.sleep(nanoseconds: 1_000_000)
                await Task.yield()
                insertAndSave("MainActor", in: context)
                let count = itemCount(in: context)
                guard count == 3 else { fail("expected 3 items, found \(count)") }
                print("@MainActor after await: ok")
                print("all passed")
                exit(0)
            }
        }
    }
}

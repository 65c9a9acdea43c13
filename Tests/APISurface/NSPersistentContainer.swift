import OpenCoreData

// NSPersistentContainer, spelled as in Apple's Swift documentation
// (developer.apple.com/documentation/coredata/nspersistentcontainer and its per-symbol pages),
// cross-checked against public Swift code. NSPersistentCloudKitContainer (CloudKit) is left out.

// MARK: - Creating a container

/// api: NSPersistentContainer.init(name:)
func api_NSPersistentContainer_init_name(_ name: String) {
    let _: NSPersistentContainer = NSPersistentContainer(name: name)
}

/// api: NSPersistentContainer.init(name:managedObjectModel:)
func api_NSPersistentContainer_init_name_managedObjectModel(_ name: String, _ model: NSManagedObjectModel) {
    let _: NSPersistentContainer = NSPersistentContainer(name: name, managedObjectModel: model)
}

// MARK: - Getting the container's configuration

/// api: NSPersistentContainer.managedObjectModel
func api_NSPersistentContainer_managedObjectModel(_ container: NSPersistentContainer) {
    let _: NSManagedObjectModel = container.managedObjectModel
}

/// api: NSPersistentContainer.name
func api_NSPersistentContainer_name(_ container: NSPersistentContainer) {
    let _: String = container.name
}

/// api: NSPersistentContainer.persistentStoreCoordinator
func api_NSPersistentContainer_persistentStoreCoordinator(_ container: NSPersistentContainer) {
    let _: NSPersistentStoreCoordinator = container.persistentStoreCoordinator
}

// MARK: - Accessing the default directory

// iOS 15.0+ / macOS 12.0+: `class var defaultDirectoryURL: URL { get }`
/// api: NSPersistentContainer.defaultDirectoryURL
func api_NSPersistentContainer_defaultDirectoryURL_property() {
    let _: URL = NSPersistentContainer.defaultDirectoryURL
}

// Subclasses override the class method to move their stores.
/// api: NSPersistentContainer.defaultDirectoryURL()
func api_NSPersistentContainer_defaultDirectoryURL() {
    final class Container: NSPersistentContainer {
        override class func defaultDirectoryURL() -> URL {
            let inherited: URL = super.defaultDirectoryURL()
            return inherited
        }
    }
    let _: URL = NSPersistentContainer.defaultDirectoryURL()
    let _: URL = Container.defaultDirectoryURL()
}

// MARK: - Managing persistent stores

/// api: NSPersistentContainer.persistentStoreDescriptions
func api_NSPersistentContainer_persistentStoreDescriptions(
    _ container: NSPersistentContainer, _ description: NSPersistentStoreDescription
) {
    let descriptions: [NSPersistentStoreDescription] = container.persistentStoreDescriptions
    container.persistentStoreDescriptions = descriptions
    container.persistentStoreDescriptions = [description]
}

/// api: NSPersistentContainer.loadPersistentStores(completionHandler:)
func api_NSPersistentContainer_loadPersistentStores_completionHandler(_ container: NSPersistentContainer) {
    container.loadPersistentStores { (description: NSPersistentStoreDescription, error: (any Error)?) in
        _ = description
        _ = error
    }
}

// MARK: - Acquiring contexts

/// api: NSPersistentContainer.newBackgroundContext()
func api_NSPersistentContainer_newBackgroundContext(_ container: NSPersistentContainer) {
    let _: NSManagedObjectContext = container.newBackgroundContext()
}

/// api: NSPersistentContainer.viewContext
func api_NSPersistentContainer_viewContext(_ container: NSPersistentContainer) {
    let _: NSManagedObjectContext = container.viewContext
}

// MARK: - Performing background tasks

/// api: NSPersistentContainer.performBackgroundTask(_:) -> Void
func api_NSPersistentContainer_performBackgroundTask(_ container: NSPersistentContainer) {
    container.performBackgroundTask { (context: NSManagedObjectContext) in
        _ = context
    }
}

// iOS 15.0+ / macOS 12.0+:
// `func performBackgroundTask<T>(_ block: @escaping (NSManagedObjectContext) throws -> T) async rethrows -> T`
/// api: NSPersistentContainer.performBackgroundTask<T>(_:) async -> T
func api_NSPersistentContainer_performBackgroundTask_async(_ container: NSPersistentContainer) async throws {
    let count: Int = await container.performBackgroundTask { (context: NSManagedObjectContext) in
        _ = context
        return 1
    }
    _ = count
    let thrown: String = try await container.performBackgroundTask { (context: NSManagedObjectContext) throws -> String in
        _ = context
        return "done"
    }
    _ = thrown
}

import Foundation

/// The whole Core Data stack in one object: model, coordinator, stores and a main-queue context.
///
/// ```swift
/// let container = NSPersistentContainer(name: "Company", managedObjectModel: model)
/// container.loadPersistentStores { description, error in
///     if let error { fatalError("\(error)") }
/// }
/// let context = container.viewContext
/// ```
///
/// On Linux there is no app bundle, so the model is passed in (or loaded from a file by the
/// caller), and stores go under ``defaultDirectoryURL()``: `$XDG_DATA_HOME/<process name>`, or
/// `~/.local/share/<process name>`.
open class NSPersistentContainer: NSObject, @unchecked Sendable {
    // @unchecked Sendable: the container's own properties are set up once, on one thread;
    // the contexts it hands out are queue-confined.

    public let name: String
    public let managedObjectModel: NSManagedObjectModel
    public let persistentStoreCoordinator: NSPersistentStoreCoordinator
    /// One description per store to add; by default a SQLite store named after the container in
    /// ``defaultDirectoryURL()``.
    open var persistentStoreDescriptions: [NSPersistentStoreDescription]

    /// A main-queue context on the coordinator, for the user interface or the main thread.
    public private(set) lazy var viewContext: NSManagedObjectContext = {
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        context.name = "viewContext"
        return context
    }()

    public init(name: String, managedObjectModel model: NSManagedObjectModel) {
        self.name = name
        self.managedObjectModel = model
        self.persistentStoreCoordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: Self.defaultDirectoryURL().appendingPathComponent("\(name).sqlite"))
        self.persistentStoreDescriptions = [description]
        super.init()
    }

    /// Where stores go by default: `$XDG_DATA_HOME/<process name>`, else
    /// `~/.local/share/<process name>` (created when stores are loaded).
    open class func defaultDirectoryURL() -> URL {
        let environment = ProcessInfo.processInfo.environment
        let base: URL
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share", isDirectory: true)
        }
        return base.appendingPathComponent(ProcessInfo.processInfo.processName, isDirectory: true)
    }

    /// Adds a store for each description, calling `block` once per description.
    open func loadPersistentStores(completionHandler block: (NSPersistentStoreDescription, Error?) -> Void) {
        for description in persistentStoreDescriptions {
            if let url = description.url, description.type != NSInMemoryStoreType {
                do {
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                } catch {
                    block(description, CoreDataError.make(NSPersistentStoreOpenError, "Can't create the directory for store \(url.path): \(error.localizedDescription)", [NSUnderlyingErrorKey: error]))
                    continue
                }
            }
            persistentStoreCoordinator.addPersistentStore(with: description, completionHandler: block)
        }
    }

    /// A new private-queue context on the coordinator.
    open func newBackgroundContext() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        return context
    }

    /// Runs `block` on a new private-queue context.
    open func performBackgroundTask(_ block: @escaping @Sendable (NSManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }

    /// Runs `block` on a new private-queue context and returns its result.
    open func performBackgroundTask<T>(_ block: @escaping (NSManagedObjectContext) throws -> T) async throws -> T {
        let context = newBackgroundContext()
        return try await context.perform(schedule: .enqueued) { try block(context) }
    }
}

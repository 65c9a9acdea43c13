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
/// `NSPersistentContainer(name:)` finds the model named `name` among the program's bundles (a
/// compiled `.momd` or `.mom`, or an Xcode `.xcdatamodeld` or `.xcdatamodel`, shipped as a
/// resource: the main bundle, and SwiftPM resource bundles beside the executable); otherwise
/// pass the model in. Stores go under
/// ``defaultDirectoryURL()``: `$XDG_DATA_HOME/<process name>`, or `~/.local/share/<process name>`.
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

    /// Why ``init(name:)`` found no model, reported by ``loadPersistentStores(completionHandler:)``.
    private var missingModelError: NSError?

    /// A container whose model is the one named `name` among the program's bundles
    /// (`<name>.momd`, `<name>.mom`, `<name>.xcdatamodeld` or `<name>.xcdatamodel`, see the
    /// type's description). When there
    /// is none, the model is empty and ``loadPersistentStores(completionHandler:)`` reports an
    /// `NSCoreDataError` that names the places searched.
    public convenience init(name: String) {
        let bundles = ModelVersionFile.programBundles()
        let found = Self.model(named: name, in: bundles)
        self.init(name: name, managedObjectModel: found ?? NSManagedObjectModel())
        if found == nil {
            let places = bundles.compactMap { $0.resourcePath }.joined(separator: ", ")
            missingModelError = CoreDataError.make(NSCoreDataError, "No model named '\(name)' (\(name).momd, \(name).mom, \(name).xcdatamodeld or \(name).xcdatamodel) was found in the program's bundles (\(places)). Add it to your target's resources, or use init(name:managedObjectModel:).")
        }
    }

    /// The model named `name` in the first of `bundles` that has one.
    static func model(named name: String, in bundles: [Bundle]) -> NSManagedObjectModel? {
        for bundle in bundles {
            for ext in NSManagedObjectModel.modelExtensions {
                // Linux Foundation answers an NSURL here; Apple's, a URL: the path suits both.
                if let path = bundle.url(forResource: name, withExtension: ext)?.path,
                   let model = NSManagedObjectModel(contentsOf: URL(fileURLWithPath: path)) {
                    return model
                }
            }
        }
        return nil
    }

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
        if let missingModelError {
            for description in persistentStoreDescriptions { block(description, missingModelError) }
            return
        }
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
    ///
    /// Apple declares one `rethrows` method; as for the context's `perform`, there are two
    /// overloads here, so that a block that cannot throw needs no `try`.
    open func performBackgroundTask<T>(_ block: @escaping (NSManagedObjectContext) throws -> T) async throws -> T {
        let context = newBackgroundContext()
        return try await context.perform(schedule: .enqueued) { try block(context) }
    }

    open func performBackgroundTask<T>(_ block: @escaping (NSManagedObjectContext) -> T) async -> T {
        let context = newBackgroundContext()
        return await context.perform(schedule: .enqueued) { block(context) }
    }
}

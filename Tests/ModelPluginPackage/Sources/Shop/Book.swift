import OpenCoreDataMacros

/// Book's Codegen is Category/Extension: the class is ours, the plugin writes its properties.
public class Book: Product {
    /// What the generated `isbn` property makes possible, in code of our own.
    public var hasISBN: Bool { isbn?.isEmpty == false }
}

/// Tag's Codegen is Manual/None: the plugin writes nothing, and the class is ours entirely.
public final class Tag: NSManagedObject {
    @ManagedProperty public var word: String?
    @ManagedProperty public var shelves: Set<Shelf>
}

/// The container of the shop's model, loaded from this module's resources.
public enum ShopStore {
    public static func makeContainer() throws -> NSPersistentContainer {
        guard let url = Bundle.module.url(forResource: "Shop", withExtension: "xcdatamodeld") else {
            throw CocoaError(.fileNoSuchFile)
        }
        let model = try NSManagedObjectModel.load(contentsOf: url, moduleName: "Shop")
        let container = NSPersistentContainer(name: "Shop", managedObjectModel: model)
        container.persistentStoreDescriptions[0].type = NSInMemoryStoreType
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }
}

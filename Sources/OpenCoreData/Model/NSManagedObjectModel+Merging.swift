import Foundation

/// One model from several: the models of an app's bundles, or models built apart.
///
/// ```swift
/// let model = NSManagedObjectModel(byMerging: [catalogModel, ordersModel])
/// let all = NSManagedObjectModel.mergedModel(from: [Bundle.module])
/// ```
///
/// Two models that both declare an entity of one name do not merge (nil), as on Apple platforms.
extension NSManagedObjectModel {
    /// A model with the entities, configurations and fetch request templates of `models`.
    public convenience init?(byMerging models: [NSManagedObjectModel]?) {
        self.init()
        guard let models, merge(models) else { return nil }
    }

    /// ``init(byMerging:)``, only if the merged model can open a store with `metadata`
    /// (``isConfiguration(withName:compatibleWithStoreMetadata:)``).
    public convenience init?(byMerging models: [NSManagedObjectModel], forStoreMetadata metadata: [String: Any]) {
        self.init()
        guard merge(models), isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) else { return nil }
    }

    /// The models in `bundles` (nil: the main bundle) merged into one, or nil when they hold
    /// none or cannot be merged. The compiled `.momd`/`.mom` models in the bundles' resources
    /// are read, as on Apple platforms, and Xcode's `.xcdatamodeld`/`.xcdatamodel` sources too
    /// (each model once: a compiled model before its source); versioned ones at their
    /// current versions.
    public class func mergedModel(from bundles: [Bundle]?) -> NSManagedObjectModel? {
        NSManagedObjectModel(byMerging: models(in: bundles ?? [Bundle.main]))
    }

    /// ``mergedModel(from:)``, only if the merged model can open a store with `metadata`.
    public class func mergedModel(from bundles: [Bundle]?, forStoreMetadata metadata: [String: Any]) -> NSManagedObjectModel? {
        NSManagedObjectModel(byMerging: models(in: bundles ?? [Bundle.main]), forStoreMetadata: metadata)
    }

    /// Every model among `bundles`' resources, a versioned model once (its current version),
    /// in a stable order.
    static func models(in bundles: [Bundle]) -> [NSManagedObjectModel] {
        modelPaths(in: bundles).compactMap { NSManagedObjectModel(contentsOf: URL(fileURLWithPath: $0)) }
    }

    /// The model files Core Data reads, in the order it looks for them: a model name's compiled
    /// `.momd`, else its `.mom`, else its `.xcdatamodeld` source, else its `.xcdatamodel`.
    static let modelExtensions = ["momd", "mom", "xcdatamodeld", "xcdatamodel"]

    /// The paths of the models among `bundles`' resources: per bundle, each model name once
    /// (its first kind in ``modelExtensions``), sorted by name.
    static func modelPaths(in bundles: [Bundle]) -> [String] {
        var paths: [String] = []
        for bundle in bundles {
            var byName: [String: String] = [:]
            for ext in modelExtensions.reversed() {
                // Linux Foundation answers NSURLs here; Apple's, URLs: the paths suit both.
                for path in (bundle.urls(forResourcesWithExtension: ext, subdirectory: nil) ?? []).compactMap({ $0.path }) {
                    byName[((path as NSString).lastPathComponent as NSString).deletingPathExtension] = path
                }
            }
            paths += byName.keys.sorted().map { byName[$0]! }
        }
        return paths
    }
}

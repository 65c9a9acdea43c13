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
    /// none or cannot be merged. Xcode's `.xcdatamodeld` and `.xcdatamodel` sources in the
    /// bundles' resources are read (their current versions); compiled `.momd`/`.mom` models
    /// are not (docs/DEVIATIONS.md).
    public class func mergedModel(from bundles: [Bundle]?) -> NSManagedObjectModel? {
        NSManagedObjectModel(byMerging: models(in: bundles ?? [Bundle.main]))
    }

    /// ``mergedModel(from:)``, only if the merged model can open a store with `metadata`.
    public class func mergedModel(from bundles: [Bundle]?, forStoreMetadata metadata: [String: Any]) -> NSManagedObjectModel? {
        NSManagedObjectModel(byMerging: models(in: bundles ?? [Bundle.main]), forStoreMetadata: metadata)
    }

    /// Every Xcode model among `bundles`' resources, a versioned model once (its current
    /// version), in a stable order.
    static func models(in bundles: [Bundle]) -> [NSManagedObjectModel] {
        xcodeModelPaths(in: bundles).compactMap { NSManagedObjectModel(contentsOf: URL(fileURLWithPath: $0)) }
    }

    /// The paths of the Xcode models among `bundles`' resources: each bundle's `.xcdatamodeld`
    /// bundles, then its `.xcdatamodel` folders, each kind sorted.
    static func xcodeModelPaths(in bundles: [Bundle]) -> [String] {
        var paths: [String] = []
        for bundle in bundles {
            for ext in ["xcdatamodeld", "xcdatamodel"] {
                // Linux Foundation answers NSURLs here; Apple's, URLs: the paths suit both.
                paths += (bundle.urls(forResourcesWithExtension: ext, subdirectory: nil) ?? []).compactMap { $0.path }.sorted()
            }
        }
        return paths
    }
}

import Foundation

extension NSMappingModel {
    /// The first mapping model in `bundles` (the main bundle when nil) that maps `sourceModel`
    /// to `destinationModel`, or nil (Apple's initializer).
    ///
    /// ```swift
    /// let mapping = NSMappingModel(from: [Bundle(path: "/usr/share/myapp")!], forSourceModel: v2, destinationModel: v3)
    /// ```
    ///
    /// Each bundle's folder is searched, subfolders included, for compiled `.cdm` files and
    /// `.xcmappingmodel` documents; a candidate matches by ``isMapping(from:to:)``.
    public convenience init?(from bundles: [Bundle]?, forSourceModel sourceModel: NSManagedObjectModel?, destinationModel: NSManagedObjectModel?) {
        guard let sourceModel, let destinationModel else { return nil }
        for url in NSMappingModel.mappingModelURLs(in: bundles ?? [Bundle.main]) {
            guard let candidate = try? NSMappingModel.load(contentsOf: url), candidate.isMapping(from: sourceModel, to: destinationModel) else { continue }
            self.init(entityMappings: candidate.entityMappings)
            return
        }
        return nil
    }

    /// Whether this mapping model migrates stores of `source` to `destination`: its entity
    /// mappings name exactly the entities of both models (every destination entity is made by
    /// a mapping, every source entity is read or removed by one), and the entity version hashes
    /// it carries, if any, are those models' (Apple's from a compiled model's
    /// `VersionInfo.plist`, or OpenCoreData's). An OpenCoreData addition.
    public func isMapping(from source: NSManagedObjectModel, to destination: NSManagedObjectModel) -> Bool {
        let sourceNames = Set(entityMappings.compactMap(\.sourceEntityName))
        let destinationNames = Set(entityMappings.compactMap(\.destinationEntityName))
        guard sourceNames == Set(source.entitiesByName.keys), destinationNames == Set(destination.entitiesByName.keys) else { return false }
        func matches(_ hash: Data?, _ name: String?, _ model: NSManagedObjectModel) -> Bool {
            guard let hash, let name else { return true }
            return model.appleEntityVersionHashesByName?[name] == hash || model.entityVersionHashesByName[name] == hash
        }
        return entityMappings.allSatisfy {
            matches($0.sourceEntityVersionHash, $0.sourceEntityName, source) && matches($0.destinationEntityVersionHash, $0.destinationEntityName, destination)
        }
    }

    /// The `.cdm` files and `.xcmappingmodel` folders under the bundles' resource folders.
    static func mappingModelURLs(in bundles: [Bundle]) -> [URL] {
        var result: [URL] = []
        for bundle in bundles {
            // The whole bundle: on Linux a bundle is often a plain folder, resources at its top.
            guard let walker = FileManager.default.enumerator(at: bundle.bundleURL, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker {
                switch url.pathExtension {
                case "cdm": result.append(url)
                case "xcmappingmodel": result.append(url); walker.skipDescendants()
                case "xcdatamodeld", "xcdatamodel", "momd": walker.skipDescendants()
                default: break
                }
            }
        }
        return result.sorted { $0.path < $1.path }
    }
}

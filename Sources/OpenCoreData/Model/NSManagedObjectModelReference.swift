import Foundation

/// One version of a model, named by its version checksum, for the stages of a staged migration.
///
/// ```swift
/// let v2 = NSManagedObjectModelReference(name: "Shop 2", in: .module, versionChecksum: "rzn6eN…")
/// let v3 = NSManagedObjectModelReference(model: shopV3, versionChecksum: shopV3.versionChecksum)
/// let stage = NSCustomMigrationStage(migratingFrom: v2, to: v3)
/// ```
///
/// The model is found when the migration needs it. A name is looked up among the bundle's
/// Xcode models (a `<name>.xcdatamodeld` or `<name>.xcdatamodel`, or a version `<name>.xcdatamodel`
/// inside a `.xcdatamodeld`); entity version hashes pick the bundle's model version that has
/// them. The model found must have the checksum given: a migration with a reference that does
/// not resolve, or resolves to another version, fails with `NSMigrationMissingSourceModelError`
/// before it changes the store.
open class NSManagedObjectModelReference: NSObject {
    private enum Source {
        case model(NSManagedObjectModel)
        case file(URL)
        case name(String, Bundle?)
        case hashes([String: Data], Bundle?)
    }

    private let source: Source
    private var resolution: Result<NSManagedObjectModel, NSError>?
    private let resolutionLock = NSLock()

    /// The checksum of the model version this reference stands for.
    public let versionChecksum: String

    /// A reference to `model`.
    public init(model: NSManagedObjectModel, versionChecksum: String) {
        source = .model(model)
        self.versionChecksum = versionChecksum
    }

    /// A reference to the model at `fileURL`: a `.xcdatamodel` folder, a `.xcdatamodeld`
    /// bundle (its current version) or a model's `contents` file.
    public init(fileURL: URL, versionChecksum: String) {
        source = .file(fileURL)
        self.versionChecksum = versionChecksum
    }

    /// A reference to the model named `modelName` in `bundle` (nil: the main bundle).
    public init(name modelName: String, in bundle: Bundle?, versionChecksum: String) {
        source = .name(modelName, bundle)
        self.versionChecksum = versionChecksum
    }

    /// A reference to the model version in `bundle` (nil: the main bundle) whose entities have
    /// the version hashes `versionHash` (entity name → hash `Data`, as in a store's metadata).
    public init(entityVersionHashes versionHash: [AnyHashable: Any], in bundle: Bundle?, versionChecksum: String) {
        var hashes: [String: Data] = [:]
        for case let (name as String, hash as Data) in versionHash { hashes[name] = hash }
        source = .hashes(hashes, bundle)
        self.versionChecksum = versionChecksum
    }

    /// The model the reference stands for. When it can't be found, an empty model (Apple's
    /// framework raises an exception); ``resolve()`` says why.
    open var resolvedModel: NSManagedObjectModel {
        (try? resolve()) ?? NSManagedObjectModel()
    }

    /// The model the reference stands for, found once; thrown `NSMigrationMissingSourceModelError`
    /// when there is none or it has another version checksum.
    func resolve() throws -> NSManagedObjectModel {
        resolutionLock.lock(); defer { resolutionLock.unlock() }
        if resolution == nil { resolution = Result { try find() }.mapError { $0 as NSError } }
        return try resolution!.get()
    }

    private func find() throws -> NSManagedObjectModel {
        let model: NSManagedObjectModel
        switch source {
        case .model(let given):
            model = given
        case .file(let url):
            do { model = try NSManagedObjectModel.load(contentsOf: url) } catch {
                throw missing("the model file at \(url.path) can't be loaded: \((error as NSError).localizedDescription)", error)
            }
        case .name(let name, let bundle):
            // A version of that name, or the current version of a versioned model of that
            // name: the one with the checksum given, when both exist.
            let bundle = bundle ?? .main
            let candidates = ModelVersionFile.versions(in: [bundle]).filter { $0.name == name } + [currentVersion(named: name, in: bundle)].compactMap { $0 }
            guard !candidates.isEmpty else {
                throw missing("the bundle at \(bundle.bundlePath) has no model or model version named '\(name)' (\(name).momd, \(name).xcdatamodeld, or a version of that name in one)", nil)
            }
            var loaded: [NSManagedObjectModel] = []
            for candidate in candidates {
                do { loaded.append(try candidate.load()) } catch {
                    throw missing("the model '\(name)' at \(candidate.url.path) can't be loaded: \((error as NSError).localizedDescription)", error)
                }
            }
            model = loaded.first { $0.versionChecksum == versionChecksum } ?? loaded[0]
        case .hashes(let hashes, let bundle):
            let bundle = bundle ?? .main
            let found = ModelVersionFile.versions(in: [bundle]).lazy.compactMap { try? $0.load() }.first { $0.hasEntityVersionHashes(hashes) }
            guard let found else {
                throw missing("no model version in the bundle at \(bundle.bundlePath) has the entity version hashes given (entities \(hashes.keys.sorted().joined(separator: ", ")))", nil)
            }
            model = found
        }
        guard model.versionChecksum == versionChecksum else {
            throw missing("the model found has version checksum \(model.versionChecksum). A model loaded from its Xcode source without the compiled .momd beside it has OpenCoreData's own checksum (docs/DEVIATIONS.md): use that model's versionChecksum, or ship the .momd beside the .xcdatamodeld", nil)
        }
        return model
    }

    /// The current version of the versioned model (`.momd` or `.xcdatamodeld`) named `name` in `bundle`.
    private func currentVersion(named name: String, in bundle: Bundle) -> ModelVersionFile? {
        for ext in ["momd", "xcdatamodeld"] {
            if let path = bundle.url(forResource: name, withExtension: ext)?.path { return ModelVersionFile(name: name, url: URL(fileURLWithPath: path)) }
        }
        return nil
    }

    private func missing(_ reason: String, _ underlying: Error?) -> NSError {
        var info: [String: Any] = ["versionChecksum": versionChecksum]
        if let underlying { info[NSUnderlyingErrorKey] = underlying as NSError }
        return CoreDataError.make(NSMigrationMissingSourceModelError,
            "The model reference with version checksum \(versionChecksum) does not resolve: \(reason). The store was left unchanged.", info)
    }
}

import Foundation

extension NSManagedObjectModel {
    /// The model of a compiled or Xcode model file, or nil when `url` holds no model this
    /// loader can read.
    ///
    /// ```swift
    /// guard let model = NSManagedObjectModel(contentsOf: URL(fileURLWithPath: "Model.momd")) else { ... }
    /// ```
    ///
    /// `url` is what Apple's initializer reads, a compiled `.momd` folder (its current version)
    /// or `.mom` file, or an Xcode source: a `.xcdatamodeld` bundle (its current version), a
    /// `.xcdatamodel` folder, or a model's `contents` file. Use
    /// ``load(contentsOf:versionInfo:moduleName:)`` to learn why a model did not load.
    public convenience init?(contentsOf url: URL) {
        self.init()
        do { try fill(contentsOf: url, versionInfo: nil, moduleName: nil) } catch { return nil }
    }

    /// The model of a compiled or Xcode model file, or a thrown `NSError` that says what is wrong.
    ///
    /// ```swift
    /// let model = try NSManagedObjectModel.load(contentsOf: URL(fileURLWithPath: "Recipes.xcdatamodeld"),
    ///                                           moduleName: "Recipes")
    /// for warning in model.loadingWarnings { print("note:", warning) }
    /// for problem in model.validationProblems() { print("problem:", problem) }
    /// ```
    ///
    /// - Parameters:
    ///   - url: a compiled `.momd` folder (the version its `VersionInfo.plist` names current)
    ///     or `.mom` file, as Xcode's model compiler writes them into an app; or an Xcode source:
    ///     a `.xcdatamodeld` bundle (the version named by its `.xccurrentversion`, else the last
    ///     version), a `.xcdatamodel` folder (Xcode 4+ `contents` XML or Xcode 3 `elements`
    ///     archive), or a `contents` XML file.
    ///   - versionInfo: a compiled `.momd` folder (or its `VersionInfo.plist`) whose Apple
    ///     version hashes for this version become ``appleEntityVersionHashesByName``. When nil,
    ///     the `.momd` being loaded (or holding the `.mom`), or a `Name.momd` beside a
    ///     `Name.xcdatamodeld`, is used if there is one.
    ///   - moduleName: the module unqualified class names belong to: with "MyApp", an entity of
    ///     class "Car" (or ".Car") uses `MyApp.Car` when this program contains it. Entities
    ///     whose class this program lacks use `NSManagedObject` (see ``loadingWarnings``).
    /// - Throws: `NSCocoaErrorDomain` errors: `NSFileReadNoSuchFileError` (260) when there is
    ///   no model at `url`, `NSFileReadCorruptFileError` (259) when the file is not an Xcode
    ///   model (not XML, not a `<model>`, a damaged compiled model), `NSFileReadUnknownError` (256) when
    ///   it cannot be read. `NSFilePathErrorKey` holds the path. Content the loader reads but
    ///   cannot use does not throw: it is listed in ``loadingWarnings``.
    public static func load(contentsOf url: URL, versionInfo: URL? = nil, moduleName: String? = nil) throws -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        try model.fill(contentsOf: url, versionInfo: versionInfo, moduleName: moduleName)
        return model
    }

    private func fill(contentsOf url: URL, versionInfo: URL?, moduleName: String?) throws {
        let location = try XcodeModelLocation.resolve(url)
        let data: Data
        do { data = try Data(contentsOf: location.fileURL) } catch {
            throw XcodeModelError.unreadable(location.fileURL, "Could not read '\(location.fileURL.path)': \(error.localizedDescription). Check that the file exists and is readable.", underlying: error)
        }
        var warnings = location.warnings
        switch location.format {
        case .xml:
            let reader = XcodeModelReader(url: location.fileURL, moduleName: moduleName)
            try reader.read(data, into: self)
            warnings += reader.warnings
        case .legacyElementsArchive:
            let reader = LegacyXcodeModelReader(url: location.fileURL, moduleName: moduleName)
            try reader.read(data, into: self)
            warnings += reader.warnings
        case .compiled:
            do {
                var decoder = try ArchivedModelDecoder(data, moduleName: moduleName)
                try decoder.fill(self)
                warnings += decoder.warnings
            } catch let failure as ArchivedModelDecoder.Failure {
                throw XcodeModelError.corrupt(location.fileURL, "'\(location.fileURL.path)' is not a compiled model Core Data can read: \(failure). Compile the model again, or load its Xcode source (.xcdatamodeld).")
            }
        }
        xcodeVersionName = location.versionName

        if let infoURL = versionInfo ?? location.siblingCompiledModel {
            let info = try CompiledModelVersionInfo(contentsOf: infoURL)
            if info.isCompiledByOpenCoreData {
                // `ocd compile` wrote OpenCoreData's own hashes: entityVersionHashesByName has them.
            } else if let hashes = info.entityVersionHashes(forVersion: location.versionName ?? info.currentVersionName) {
                appleEntityVersionHashesByName = hashes
            } else {
                warnings.append("'\(infoURL.path)' has no version hashes for version '\(location.versionName ?? "?")' (it has \(info.versionHashes.keys.sorted())); appleEntityVersionHashesByName is nil.")
            }
        }
        loadingWarnings = warnings
    }
}

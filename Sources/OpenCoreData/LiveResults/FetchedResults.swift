import Foundation

/// What the generic controller is to its results: where the section index titles of a
/// subclass come from.
protocol FetchedResultsOwner: AnyObject {
    func sectionIndexTitle(forSectionName sectionName: String) -> String?
}

/// The results of an `NSFetchedResultsController`, without its type parameter: the sections, the
/// objects in them, and the tracking of the context's changes (`FetchedResults+Changes.swift`).
///
/// One instance is shared by a controller and by the `NSFetchedResultsController<NSFetchRequestResult>`
/// the delegate receives, so both see the same results.
///
/// Invariants, true after every `performFetch()` and every tracked event:
/// - `sections` are in the order of the sort descriptors and none is empty, except the one
///   section of a controller without a section key path, which is always there;
/// - each section's `members` are in the order of the sort descriptors (by their current values);
/// - `sectionOf[ObjectIdentifier(o)]` is the section whose `members` contain `o`, for exactly
///   the objects of the results (the sections hold them strongly, so an identifier is never
///   reused while it is a key).
final class FetchedResults {
    let context: NSManagedObjectContext
    let sectionNameKeyPath: String?
    let cacheName: String?
    /// The controller's request, read again at each `performFetch()`.
    let requestSource: any FetchRequestConvertible
    weak var owner: (any FetchedResultsOwner)?
    /// The controller as `NSFetchedResultsController<NSFetchRequestResult>`, for the delegate.
    weak var erasedController: NSFetchedResultsController<any NSFetchRequestResult>?
    weak var delegate: (any NSFetchedResultsControllerDelegate)? {
        didSet { delegateTakesDifferences = true }
    }
    /// Until a delegate's default `controller(_:didChangeContentWith:)` says otherwise.
    var delegateTakesDifferences = true

    /// The request of the last `performFetch()`.
    private(set) var activeRequest: NSFetchRequest<NSFetchRequestResult>?
    /// nil before the first `performFetch()`.
    private(set) var sections: [FetchedResultsSection]?
    var sectionByName: [String: FetchedResultsSection] = [:]
    var sectionOf: [ObjectIdentifier: FetchedResultsSection] = [:]
    /// Counts changes of the results, so typed copies know when to be made again.
    private(set) var generation = 0
    private var flattened: [NSManagedObject]?
    private var observer: (any NSObjectProtocol)?

    init(context: NSManagedObjectContext, requestSource: any FetchRequestConvertible, sectionNameKeyPath: String?, cacheName: String?) {
        self.context = context
        self.requestSource = requestSource
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
        if let cacheName, let snapshot = cacheSnapshot() { FetchedResultsCache.shared.store(snapshot, named: cacheName) }
    }

    /// Whether the results are managed objects, whose changes the controller tracks.
    var tracksObjects: Bool { activeRequest?.resultType == .managedObjectResultType }

    // MARK: - Fetching

    func performFetch() throws {
        let request = requestSource.resultRequestCopy()
        guard let sortDescriptors = request.sortDescriptors, !sortDescriptors.isEmpty else {
            throw CoreDataError.make(NSCoreDataError, "An NSFetchedResultsController needs a fetch request with sort descriptors: its sections and the positions it reports follow them. Set fetchRequest.sortDescriptors before performFetch().")
        }
        let results = try context.fetch(request)
        let newSections: [FetchedResultsSection]
        if request.resultType == .managedObjectResultType {
            let objects = results.map { $0 as! NSManagedObject }
            newSections = try makeSections(of: objects, configuration: Self.configuration(of: request, sectionNameKeyPath: sectionNameKeyPath))
        } else {
            newSections = makeSections(ofOther: results)
        }
        activeRequest = request
        sections = newSections
        sectionByName = Dictionary(newSections.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        sectionOf = [:]
        sectionOf.reserveCapacity(newSections.reduce(0) { $0 + $1.members.count })
        for section in newSections { for o in section.members { sectionOf[ObjectIdentifier(o)] = section } }
        resultsChanged()
        if tracksObjects { observeContext() }
    }

    /// Groups objects in fetch order into sections, from the cache when it holds these very
    /// objects under this configuration.
    private func makeSections(of objects: [NSManagedObject], configuration: String) throws -> [FetchedResultsSection] {
        guard let sectionNameKeyPath else {
            // Without a section key path there is always one section, empty or not.
            return [FetchedResultsSection(name: "", indexTitle: nil, members: objects)]
        }
        if let cacheName, let names = FetchedResultsCache.shared.sectionNames(named: cacheName, configuration: configuration, objects: objects) {
            return group(objects) { i, _ in names[i] }
        }
        // Apple's controller requires the objects to arrive grouped by section (the first sort
        // descriptor on the section key path): a name seen before, after another, is an error.
        var seen = Set<String>(), last: String?
        var names: [String] = []
        names.reserveCapacity(objects.count)
        for (i, object) in objects.enumerated() {
            let name = Self.sectionName(of: object, keyPath: sectionNameKeyPath)
            names.append(name)
            if name != last {
                if seen.contains(name) {
                    throw CoreDataError.make(NSCoreDataError, "The fetched object at index \(i) has an out of order section name '\(name)'. Objects must be sorted by section name: make the first sort descriptor sort by '\(sectionNameKeyPath)'.")
                }
                seen.insert(name)
                last = name
            }
        }
        return group(objects) { i, _ in names[i] }
    }

    private func group(_ objects: [NSManagedObject], name: (Int, NSManagedObject) -> String) -> [FetchedResultsSection] {
        var result: [FetchedResultsSection] = []
        for (i, object) in objects.enumerated() {
            let n = name(i, object)
            if let current = result.last, current.name == n { current.members.append(object); continue }
            result.append(FetchedResultsSection(name: n, indexTitle: indexTitle(forSectionName: n), members: [object]))
        }
        return result
    }

    /// Results that are not managed objects (dictionaries, IDs, counts) are shown as fetched:
    /// grouped by the key path when they are dictionaries, and not tracked, as Apple's.
    private func makeSections(ofOther results: [any NSFetchRequestResult]) -> [FetchedResultsSection] {
        if sectionNameKeyPath == nil { return [FetchedResultsSection(name: "", indexTitle: nil, others: results)] }
        var result: [FetchedResultsSection] = []
        for r in results {
            var n = ""
            if let sectionNameKeyPath {
                let value = (r as? [String: Any])?[sectionNameKeyPath] ?? (r as? NSDictionary)?[sectionNameKeyPath]
                n = Self.sectionName(for: value)
            }
            if let current = result.last, current.name == n { current.others.append(r); continue }
            result.append(FetchedResultsSection(name: n, indexTitle: sectionNameKeyPath == nil ? nil : indexTitle(forSectionName: n), others: [r]))
        }
        return result
    }

    // MARK: - Reading

    /// Every object in section order.
    var fetchedObjects: [Any]? {
        guard let sections else { return nil }
        if !tracksObjects { return sections.flatMap(\.others) }
        if flattened == nil { flattened = sections.flatMap(\.members) }
        return flattened
    }

    func object(at indexPath: IndexPath) -> Any {
        guard let sections, indexPath.count == 2, sections.indices.contains(indexPath.section),
              indexPath.item >= 0, indexPath.item < sections[indexPath.section].numberOfObjects else {
            preconditionFailure("object(at:): no object at \(indexPath); the controller has \(sections?.map(\.numberOfObjects).description ?? "not fetched yet (call performFetch())") objects per section.")
        }
        let section = sections[indexPath.section]
        return tracksObjects ? section.members[indexPath.item] : section.others[indexPath.item]
    }

    func indexPath(forObject object: Any) -> IndexPath? {
        guard let sections else { return nil }
        if let object = object as? NSManagedObject, tracksObjects {
            guard let section = sectionOf[ObjectIdentifier(object)],
                  let s = sections.firstIndex(where: { $0 === section }),
                  let row = section.members.firstIndex(where: { $0 === object }) else { return nil }
            return IndexPath(item: row, section: s)
        }
        for (s, section) in sections.enumerated() {
            if let row = section.others.firstIndex(where: { Self.isSameResult($0, object) }) { return IndexPath(item: row, section: s) }
        }
        return nil
    }

    /// Equality of results that are not managed objects: objects by `isEqual`, dictionaries by value.
    private static func isSameResult(_ a: Any, _ b: Any) -> Bool {
        if let a = a as? NSObject, let b = b as? NSObject { return a.isEqual(b) }
        if let a = a as? [String: Any], let b = b as? [String: Any] { return NSDictionary(dictionary: a).isEqual(to: b) }
        return false
    }

    // MARK: - Section names and index titles

    /// The section an object belongs to: its value of the key path, as text.
    /// A one-key path is read with `value(forKey:)`, as key-value coding does, so that a
    /// subclass's override of it is used.
    static func sectionName(of object: NSManagedObject, keyPath: String) -> String {
        sectionName(for: keyPath.contains(".") ? object.value(forKeyPath: keyPath) : object.value(forKey: keyPath))
    }

    /// A value as a section name: strings as they are, numbers as `NSNumber` writes them
    /// (Booleans as 0 and 1), other values as they describe themselves, nil as "".
    static func sectionName(for value: Any?) -> String {
        // The integer cases come first: they are what section keys usually are, and a failed
        // cast to `Bool` or `NSNumber` is the slowest kind of cast.
        switch value {
        case nil: return ""
        case let string as String: return string
        case let integer as Int64: return String(integer)
        case let integer as Int: return String(integer)
        case let integer as Int32: return String(integer)
        case let integer as Int16: return String(integer)
        case let bool as Bool: return bool ? "1" : "0"
        case is NSNull: return ""
        case let number as NSNumber: return number.stringValue
        case let object as NSManagedObject: return object.objectID.uriRepresentation().absoluteString
        case let value?: return String(describing: value)
        }
    }

    func indexTitle(forSectionName name: String) -> String? {
        if let delegate, let erasedController { return delegate.controller(erasedController, sectionIndexTitleForSectionName: name) }
        return defaultSectionIndexTitle(forSectionName: name)
    }

    /// What the delegate's default `controller(_:sectionIndexTitleForSectionName:)` returns:
    /// the controller's (a subclass may override it).
    func defaultSectionIndexTitle(forSectionName name: String) -> String? {
        owner?.sectionIndexTitle(forSectionName: name) ?? Self.capitalizedFirstLetter(of: name)
    }

    static func capitalizedFirstLetter(of name: String) -> String? {
        name.first.map { String($0).uppercased() }
    }

    /// The distinct index titles of the sections, in section order.
    var sectionIndexTitles: [String] {
        var seen = Set<String>()
        return (sections ?? []).compactMap(\.indexTitle).filter { seen.insert($0).inserted }
    }

    // MARK: - Bookkeeping

    func resultsChanged() {
        generation &+= 1
        flattened = nil
    }

    /// Replaces the sections after a tracked event (`FetchedResults+Changes.swift`).
    func setSections(_ newSections: [FetchedResultsSection]) {
        sections = newSections
        resultsChanged()
    }

    private func observeContext() {
        guard observer == nil else { return }
        let box = WeakFetchedResults(self)
        observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextObjectsDidChange, object: context, queue: nil) { note in
            // Posted on the context's queue, where the controller is used.
            box.results?.contextObjectsDidChange(note.userInfo ?? [:])
        }
    }

    /// What the cache keeps of these results; nil when there is nothing to keep.
    func cacheSnapshot() -> FetchedResultsCache.Snapshot? {
        guard let sections, let request = activeRequest, tracksObjects, sectionNameKeyPath != nil else { return nil }
        return FetchedResultsCache.Snapshot(configuration: Self.configuration(of: request, sectionNameKeyPath: sectionNameKeyPath),
                                            objectIDs: sections.flatMap { $0.members.map(\.objectID) },
                                            sectionNames: sections.flatMap { s in s.members.map { _ in s.name } })
    }

    /// What decides the sections: a cache entry made under another configuration is not used.
    static func configuration(of request: NSFetchRequest<NSFetchRequestResult>, sectionNameKeyPath: String?) -> String {
        let sorts = (request.sortDescriptors ?? []).map { "\($0.key ?? "self"):\($0.ascending)" }.joined(separator: ",")
        return [request.entityName ?? request.entity?.name ?? "", request.predicate?.predicateFormat ?? "",
                sorts, String(request.includesSubentities), sectionNameKeyPath ?? ""].joined(separator: "\u{1F}")
    }
}

/// The observer's reference to its results; the notification is posted on the context's queue,
/// which is the only place the results are used.
final class WeakFetchedResults: @unchecked Sendable {
    weak var results: FetchedResults?
    init(_ results: FetchedResults) { self.results = results }
}

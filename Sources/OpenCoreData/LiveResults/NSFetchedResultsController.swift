import Foundation

/// The results of a fetch request kept current as the context changes, in sections, with a
/// delegate told of every insertion, deletion, move and update.
///
/// ```swift
/// let request = NSFetchRequest<Employee>(entityName: "Employee")
/// request.sortDescriptors = [NSSortDescriptor(key: "department.name", ascending: true),
///                            NSSortDescriptor(key: "lastName", ascending: true)]
/// let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
///                                             sectionNameKeyPath: "department.name", cacheName: nil)
/// controller.delegate = employeeList          // an NSFetchedResultsControllerDelegate
/// try controller.performFetch()
/// let first = controller.object(at: IndexPath(item: 0, section: 0))
/// ```
///
/// The request needs sort descriptors; with a `sectionNameKeyPath` the first one must sort by
/// the section key, so that each section's objects arrive together. `performFetch()` runs the
/// request; from then on, while the controller has a delegate, every event of the context — the
/// context processing its pending changes, a merge of another context's save, a refresh — is
/// applied to the results and reported to the delegate: objects inserted or deleted, objects
/// that start or stop matching the predicate, changed objects whose sort or section key moved
/// them, sections that appear or empty. Changes to objects of other entities, or to objects
/// related through a key path, are not tracked (as on Apple platforms). Without a delegate the
/// controller does no tracking: its results stay as they were fetched.
///
/// Use the controller on its context's queue. Results that are not managed objects (dictionaries,
/// object IDs) are fetched and sectioned, and not tracked, as Apple's.
open class NSFetchedResultsController<ResultType>: NSObject, FetchedResultsOwner {
    final let results: FetchedResults
    private let request: NSFetchRequest<ResultType>
    /// This controller as `NSFetchedResultsController<NSFetchRequestResult>`, sharing its
    /// results, when `ResultType` is another type (the type the delegate methods take).
    private var erased: NSFetchedResultsController<any NSFetchRequestResult>?
    private var typedObjects: (generation: Int, objects: [ResultType])?

    /// A controller for `fetchRequest` in `context`, grouping the objects into sections by
    /// `sectionNameKeyPath` (nil: one section) and keeping its section information under
    /// `cacheName` (nil: no cache). Call ``performFetch()`` to fetch.
    public init(fetchRequest: NSFetchRequest<ResultType>, managedObjectContext context: NSManagedObjectContext, sectionNameKeyPath: String?, cacheName name: String?) {
        request = fetchRequest
        results = FetchedResults(context: context, requestSource: fetchRequest, sectionNameKeyPath: sectionNameKeyPath, cacheName: name)
        super.init()
        results.owner = self
        if let same = self as? NSFetchedResultsController<any NSFetchRequestResult> {
            results.erasedController = same
        } else {
            let erased = NSFetchedResultsController<any NSFetchRequestResult>(sharing: results, request: fetchRequest.resultRequestCopy())
            self.erased = erased
            results.erasedController = erased
        }
    }

    /// The same results seen with another type parameter.
    private init(sharing results: FetchedResults, request: NSFetchRequest<ResultType>) {
        self.results = results
        self.request = request
        super.init()
    }

    /// The request the controller runs. Changing it takes effect at the next ``performFetch()``
    /// (delete the cache first when you use one).
    open var fetchRequest: NSFetchRequest<ResultType> { request }
    open var managedObjectContext: NSManagedObjectContext { results.context }
    open var sectionNameKeyPath: String? { results.sectionNameKeyPath }
    open var cacheName: String? { results.cacheName }

    /// Told of each change to the results; held weakly. Without one, the controller does not
    /// track the context's changes.
    open var delegate: (any NSFetchedResultsControllerDelegate)? {
        get { results.delegate }
        set { results.delegate = newValue }
    }

    /// Runs the fetch request and builds the sections; the results are tracked from now on.
    ///
    /// - Throws: `NSCoreDataError` when the request has no sort descriptors, or when, with a
    ///   `sectionNameKeyPath`, the objects do not arrive grouped by section (Apple's controller
    ///   raises or fails for both); any error of the fetch.
    open func performFetch() throws {
        try results.performFetch()
    }

    /// Every object of the results, section after section; nil before ``performFetch()``.
    open var fetchedObjects: [ResultType]? {
        guard let objects = results.fetchedObjects else { return nil }
        if let typedObjects, typedObjects.generation == results.generation { return typedObjects.objects }
        let typed = objects.map { $0 as! ResultType }
        typedObjects = (results.generation, typed)
        return typed
    }

    /// The object at a section and item.
    ///
    /// - Precondition: The index path is in the results (as an array index must be).
    open func object(at indexPath: IndexPath) -> ResultType {
        results.object(at: indexPath) as! ResultType
    }

    /// Where an object is in the results; nil when it is not in them.
    open func indexPath(forObject object: ResultType) -> IndexPath? {
        results.indexPath(forObject: object)
    }

    /// The sections, in order; nil before ``performFetch()``. Without a `sectionNameKeyPath` there
    /// is always one section, empty when nothing matches (as Apple's); with one, a section per
    /// distinct name, none when nothing matches.
    open var sections: [any NSFetchedResultsSectionInfo]? {
        results.sections
    }

    /// The section index: the distinct index titles of the sections, in order.
    open var sectionIndexTitles: [String] {
        results.sectionIndexTitles
    }

    /// The section of the section index entry `title` (at `sectionIndex` in
    /// ``sectionIndexTitles``): the first section with that index title.
    open func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        let sections = results.sections ?? []
        if let found = sections.firstIndex(where: { $0.indexTitle == title }) { return found }
        return sections.isEmpty ? 0 : min(max(sectionIndex, 0), sections.count - 1)
    }

    /// The section index entry of a section: by default its name's first letter, capitalized.
    /// Override it to index sections another way (a delegate's
    /// `controller(_:sectionIndexTitleForSectionName:)` comes first).
    open func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        FetchedResults.capitalizedFirstLetter(of: sectionName)
    }

    /// Removes the section cache `name`, or every cache when `name` is nil. Do it before you
    /// change the fetch request of a controller that uses the cache.
    open class func deleteCache(withName name: String?) {
        FetchedResultsCache.shared.delete(named: name)
    }

    /// Controllers are equal when they share results: the controller you made and the
    /// `NSFetchedResultsController<NSFetchRequestResult>` its delegate receives.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? any FetchedResultsSharing else { return false }
        return other.sharedResults === results
    }

    open override var hash: Int { ObjectIdentifier(results).hashValue }
}

/// A controller of any type parameter, for equality across them.
protocol FetchedResultsSharing {
    var sharedResults: FetchedResults { get }
}

extension NSFetchedResultsController: FetchedResultsSharing {
    var sharedResults: FetchedResults { results }
}

import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsfetchedresultscontroller
// (`class NSFetchedResultsController<ResultType> : NSObject where ResultType : NSFetchRequestResult`,
// iOS 18 / macOS 15 SDK), cross-checked against a second copy of Apple's reference pages.

// MARK: - Initializing

/// api: NSFetchedResultsController.init(fetchRequest:managedObjectContext:sectionNameKeyPath:cacheName:)
func api_NSFetchedResultsController_init(_ request: NSFetchRequest<NSManagedObject>, _ context: NSManagedObjectContext) {
    let _: NSFetchedResultsController<NSManagedObject> = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
    let _: NSFetchedResultsController<NSManagedObject> = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "department", cacheName: "Employees")
}

/// api: NSFetchedResultsController.performFetch()
func api_NSFetchedResultsController_performFetch(_ controller: NSFetchedResultsController<NSManagedObject>) throws {
    try controller.performFetch()
}

// MARK: - Configuration

/// api: NSFetchedResultsController.fetchRequest
func api_NSFetchedResultsController_fetchRequest(_ controller: NSFetchedResultsController<NSManagedObject>) {
    let _: NSFetchRequest<NSManagedObject> = controller.fetchRequest
}

/// api: NSFetchedResultsController.managedObjectContext
func api_NSFetchedResultsController_managedObjectContext(_ controller: NSFetchedResultsController<NSManagedObject>) {
    let _: NSManagedObjectContext = controller.managedObjectContext
}

/// api: NSFetchedResultsController.sectionNameKeyPath
func api_NSFetchedResultsController_sectionNameKeyPath(_ controller: NSFetchedResultsController<NSManagedObject>) {
    let _: String? = controller.sectionNameKeyPath
}

/// api: NSFetchedResultsController.cacheName
func api_NSFetchedResultsController_cacheName(_ controller: NSFetchedResultsController<NSManagedObject>) {
    let _: String? = controller.cacheName
}

/// api: NSFetchedResultsController.delegate
func api_NSFetchedResultsController_delegate(_ controller: NSFetchedResultsController<NSManagedObject>, _ delegate: any NSFetchedResultsControllerDelegate) {
    let current: (any NSFetchedResultsControllerDelegate)? = controller.delegate
    controller.delegate = current
    controller.delegate = delegate
    controller.delegate = nil
}

/// api: NSFetchedResultsController.deleteCache(withName:)
func api_NSFetchedResultsController_deleteCache_withName() {
    NSFetchedResultsController<NSFetchRequestResult>.deleteCache(withName: "Employees")
    NSFetchedResultsController<NSManagedObject>.deleteCache(withName: nil)
}

// MARK: - Accessing results

/// api: NSFetchedResultsController.fetchedObjects
func api_NSFetchedResultsController_fetchedObjects(_ controller: NSFetchedResultsController<NSManagedObject>) {
    let _: [NSManagedObject]? = controller.fetchedObjects
}

/// api: NSFetchedResultsController.object(at:)
func api_NSFetchedResultsController_object_at(_ controller: NSFetchedResultsController<NSManagedObject>, _ indexPath: IndexPath) {
    let _: NSManagedObject = controller.object(at: indexPath)
}

/// api: NSFetchedResultsController.indexPath(forObject:)
func api_NSFetchedResultsController_indexPath_forObject(_ controller: NSFetchedResultsController<NSManagedObject>, _ object: NSManagedObject) {
    let _: IndexPath? = controller.indexPath(forObject: object)
}

// MARK: - Sections

/// api: NSFetchedResultsController.sections
func api_NSFetchedResultsController_sections(_ controller: NSFetchedResultsController<NSManagedObject>) {
    let _: [any NSFetchedResultsSectionInfo]? = controller.sections
}

/// api: NSFetchedResultsController.section(forSectionIndexTitle:at:)
func api_NSFetchedResultsController_section_forSectionIndexTitle_at(_ controller: NSFetchedResultsController<NSManagedObject>) {
    let _: Int = controller.section(forSectionIndexTitle: "A", at: 0)
}

/// api: NSFetchedResultsController.sectionIndexTitle(forSectionName:)
func api_NSFetchedResultsController_sectionIndexTitle_forSectionName(_ controller: NSFetchedResultsController<NSManagedObject>) {
    let _: String? = controller.sectionIndexTitle(forSectionName: "Accounting")
}

/// api: NSFetchedResultsController.sectionIndexTitles
func api_NSFetchedResultsController_sectionIndexTitles(_ controller: NSFetchedResultsController<NSManagedObject>) {
    let _: [String] = controller.sectionIndexTitles
}

import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsfetchedpropertydescription (iOS 18 / macOS 15 SDK),
// cross-checked against the generated Swift interface of CoreData/NSFetchedPropertyDescription.h and
// onestack.dev's iOS reference.

/// api: NSFetchedPropertyDescription.init()
func api_NSFetchedPropertyDescription_init() {
    let property: NSFetchedPropertyDescription = NSFetchedPropertyDescription()
    _ = property
}

/// api: NSFetchedPropertyDescription.fetchRequest
func api_NSFetchedPropertyDescription_fetchRequest(_ property: NSFetchedPropertyDescription) {
    let request: NSFetchRequest<any NSFetchRequestResult>? = property.fetchRequest
    property.fetchRequest = request
    property.fetchRequest = nil
}

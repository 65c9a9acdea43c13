import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsfetchedresultssectioninfo
// (`protocol NSFetchedResultsSectionInfo`, all four properties required), cross-checked against a
// second copy of Apple's reference pages.

/// api: NSFetchedResultsSectionInfo.name
func api_NSFetchedResultsSectionInfo_name(_ section: any NSFetchedResultsSectionInfo) {
    let _: String = section.name
}

/// api: NSFetchedResultsSectionInfo.indexTitle
func api_NSFetchedResultsSectionInfo_indexTitle(_ section: any NSFetchedResultsSectionInfo) {
    let _: String? = section.indexTitle
}

/// api: NSFetchedResultsSectionInfo.numberOfObjects
func api_NSFetchedResultsSectionInfo_numberOfObjects(_ section: any NSFetchedResultsSectionInfo) {
    let _: Int = section.numberOfObjects
}

/// api: NSFetchedResultsSectionInfo.objects
func api_NSFetchedResultsSectionInfo_objects(_ section: any NSFetchedResultsSectionInfo) {
    let _: [Any]? = section.objects
}

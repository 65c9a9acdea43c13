import OpenCoreData

/// api: NSMergeConflict.init(source:newVersion:oldVersion:cachedSnapshot:persistedSnapshot:)
func api_NSMergeConflict_init_source_newVersion_oldVersion_cachedSnapshot_persistedSnapshot(_ object: NSManagedObject, _ cached: [String: Any]?, _ persisted: [String: Any]?) {
    let _: NSMergeConflict = NSMergeConflict(source: object, newVersion: 2 as Int, oldVersion: 1 as Int, cachedSnapshot: cached, persistedSnapshot: persisted)
}

/// api: NSMergeConflict.sourceObject
func api_NSMergeConflict_sourceObject(_ conflict: NSMergeConflict) {
    let _: NSManagedObject = conflict.sourceObject
}

/// api: NSMergeConflict.objectSnapshot
func api_NSMergeConflict_objectSnapshot(_ conflict: NSMergeConflict) {
    let _: [String: Any]? = conflict.objectSnapshot
}

/// api: NSMergeConflict.cachedSnapshot
func api_NSMergeConflict_cachedSnapshot(_ conflict: NSMergeConflict) {
    let _: [String: Any]? = conflict.cachedSnapshot
}

/// api: NSMergeConflict.persistedSnapshot
func api_NSMergeConflict_persistedSnapshot(_ conflict: NSMergeConflict) {
    let _: [String: Any]? = conflict.persistedSnapshot
}

/// api: NSMergeConflict.newVersionNumber
func api_NSMergeConflict_newVersionNumber(_ conflict: NSMergeConflict) {
    let _: Int = conflict.newVersionNumber
}

/// api: NSMergeConflict.oldVersionNumber
func api_NSMergeConflict_oldVersionNumber(_ conflict: NSMergeConflict) {
    let _: Int = conflict.oldVersionNumber
}

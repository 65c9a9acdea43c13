import OpenCoreData

/// api: NSConstraintConflict.init(constraint:database:databaseSnapshot:conflicting:conflictingSnapshots:)
func api_NSConstraintConflict_init_constraint_database_databaseSnapshot_conflicting_conflictingSnapshots(_ databaseObject: NSManagedObject?, _ databaseSnapshot: [AnyHashable: Any]?, _ conflicting: [NSManagedObject], _ snapshots: [Any]) {
    let _: NSConstraintConflict = NSConstraintConflict(constraint: ["name"] as [String], database: databaseObject, databaseSnapshot: databaseSnapshot, conflicting: conflicting, conflictingSnapshots: snapshots)
}

/// api: NSConstraintConflict.constraint
func api_NSConstraintConflict_constraint(_ conflict: NSConstraintConflict) {
    let _: [String] = conflict.constraint
}

/// api: NSConstraintConflict.constraintValues
func api_NSConstraintConflict_constraintValues(_ conflict: NSConstraintConflict) {
    let _: [String: Any] = conflict.constraintValues
}

/// api: NSConstraintConflict.databaseObject
func api_NSConstraintConflict_databaseObject(_ conflict: NSConstraintConflict) {
    let _: NSManagedObject? = conflict.databaseObject
}

/// api: NSConstraintConflict.databaseSnapshot
func api_NSConstraintConflict_databaseSnapshot(_ conflict: NSConstraintConflict) {
    let _: [String: Any]? = conflict.databaseSnapshot
}

/// api: NSConstraintConflict.conflictingObjects
func api_NSConstraintConflict_conflictingObjects(_ conflict: NSConstraintConflict) {
    let _: [NSManagedObject] = conflict.conflictingObjects
}

/// api: NSConstraintConflict.conflictingSnapshots
func api_NSConstraintConflict_conflictingSnapshots(_ conflict: NSConstraintConflict) {
    let _: [[AnyHashable: Any]] = conflict.conflictingSnapshots
}

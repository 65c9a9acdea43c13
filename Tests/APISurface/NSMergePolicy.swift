import OpenCoreData

/// api: NSMergePolicy.init(merge:)
func api_NSMergePolicy_init_merge() {
    let _: NSMergePolicy = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
}

/// api: NSMergePolicy.mergeType
func api_NSMergePolicy_mergeType(_ policy: NSMergePolicy) {
    let _: NSMergePolicyType = policy.mergeType
}

/// api: NSMergePolicy.resolve(optimisticLockingConflicts:)
final class api_NSMergePolicy_resolve_optimisticLockingConflicts: NSMergePolicy {
    override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
        try super.resolve(optimisticLockingConflicts: list)
    }
}

/// api: NSMergePolicy.resolve(constraintConflicts:)
final class api_NSMergePolicy_resolve_constraintConflicts: NSMergePolicy {
    override func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
        try super.resolve(constraintConflicts: list)
    }
}

/// api: NSMergePolicy.resolve(mergeConflicts:)
final class api_NSMergePolicy_resolve_mergeConflicts: NSMergePolicy {
    override func resolve(mergeConflicts list: [Any]) throws {
        try super.resolve(mergeConflicts: list)
    }
}

/// api: NSMergePolicy.error
func api_NSMergePolicy_error() {
    let _: NSMergePolicy = NSMergePolicy.error
}

/// api: NSMergePolicy.rollback
func api_NSMergePolicy_rollback() {
    let _: NSMergePolicy = NSMergePolicy.rollback
}

/// api: NSMergePolicy.overwrite
func api_NSMergePolicy_overwrite() {
    let _: NSMergePolicy = NSMergePolicy.overwrite
}

/// api: NSMergePolicy.mergeByPropertyObjectTrump
func api_NSMergePolicy_mergeByPropertyObjectTrump() {
    let _: NSMergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
}

/// api: NSMergePolicy.mergeByPropertyStoreTrump
func api_NSMergePolicy_mergeByPropertyStoreTrump() {
    let _: NSMergePolicy = NSMergePolicy.mergeByPropertyStoreTrump
}

// The five global policies: Apple declares each `var NSXxxMergePolicy: AnyObject` (an Objective-C
// `extern id`, hence `var`); nothing assigns to them, so only the read and its type are checked.

/// api: NSErrorMergePolicy
func api_NSMergePolicy_NSErrorMergePolicy() {
    let _: AnyObject = NSErrorMergePolicy
}

/// api: NSMergeByPropertyStoreTrumpMergePolicy
func api_NSMergePolicy_NSMergeByPropertyStoreTrumpMergePolicy() {
    let _: AnyObject = NSMergeByPropertyStoreTrumpMergePolicy
}

/// api: NSMergeByPropertyObjectTrumpMergePolicy
func api_NSMergePolicy_NSMergeByPropertyObjectTrumpMergePolicy() {
    let _: AnyObject = NSMergeByPropertyObjectTrumpMergePolicy
}

/// api: NSOverwriteMergePolicy
func api_NSMergePolicy_NSOverwriteMergePolicy() {
    let _: AnyObject = NSOverwriteMergePolicy
}

/// api: NSRollbackMergePolicy
func api_NSMergePolicy_NSRollbackMergePolicy() {
    let _: AnyObject = NSRollbackMergePolicy
}

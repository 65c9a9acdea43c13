import Foundation

/// What a Core Data error carries, read from its `userInfo` by name, as Apple's Core Data
/// overlay declares it:
///
/// ```swift
/// catch let error as CocoaError where error.code == .validationMissingMandatoryProperty {
///     print("\(error.validationKey ?? "?") is required")
/// }
/// ```
extension CocoaError {
    /// The object that failed to validate (`NSValidationObjectErrorKey`).
    public var validationObject: Any? { userInfo[NSValidationObjectErrorKey] }
    /// The key that failed to validate (`NSValidationKeyErrorKey`).
    public var validationKey: String? { userInfo[NSValidationKeyErrorKey] as? String }
    /// The predicate of the validation rule that failed (`NSValidationPredicateErrorKey`).
    public var validationPredicate: NSPredicate? { userInfo[NSValidationPredicateErrorKey] as? NSPredicate }
    /// The value that failed to validate (`NSValidationValueErrorKey`).
    public var validationValue: Any? { userInfo[NSValidationValueErrorKey] }
    /// The stores the error concerns (`NSAffectedStoresErrorKey`).
    public var affectedStores: [AnyObject]? { userInfo[NSAffectedStoresErrorKey] as? [AnyObject] }
    /// The objects the error concerns (`NSAffectedObjectsErrorKey`).
    public var affectedObjects: [AnyObject]? { userInfo[NSAffectedObjectsErrorKey] as? [AnyObject] }
    /// The conflicts a save could not resolve (`NSPersistentStoreSaveConflictsErrorKey`).
    public var persistentStoreSaveConflicts: [NSMergeConflict]? {
        (userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [Any])?.compactMap { $0 as? NSMergeConflict }
    }
}

import Foundation

// Core Data's error codes in NSCocoaErrorDomain, under Apple's names, so ported code that
// compares `error.code == NSValidationMultipleErrorsError` compiles unchanged.

public let NSManagedObjectValidationError = 1550
public let NSManagedObjectConstraintValidationError = 1551
public let NSValidationMultipleErrorsError = 1560
public let NSValidationMissingMandatoryPropertyError = 1570
public let NSValidationRelationshipLacksMinimumCountError = 1580
public let NSValidationRelationshipExceedsMaximumCountError = 1590
public let NSValidationRelationshipDeniedDeleteError = 1600
public let NSValidationNumberTooLargeError = 1610
public let NSValidationNumberTooSmallError = 1620
public let NSValidationDateTooLateError = 1630
public let NSValidationDateTooSoonError = 1640
public let NSValidationInvalidDateError = 1650
public let NSValidationStringTooLongError = 1660
public let NSValidationStringTooShortError = 1670
public let NSValidationStringPatternMatchingError = 1680
public let NSValidationInvalidURIError = 1690

public let NSManagedObjectContextLockingError = 132000
public let NSPersistentStoreCoordinatorLockingError = 132010
public let NSManagedObjectReferentialIntegrityError = 133000
public let NSManagedObjectExternalRelationshipError = 133010
public let NSManagedObjectMergeError = 133020
public let NSManagedObjectConstraintMergeError = 133021
public let NSPersistentStoreInvalidTypeError = 134000
public let NSPersistentStoreTypeMismatchError = 134010
public let NSPersistentStoreIncompatibleSchemaError = 134020
public let NSPersistentStoreSaveError = 134030
public let NSPersistentStoreIncompleteSaveError = 134040
public let NSPersistentStoreSaveConflictsError = 134050
public let NSCoreDataError = 134060
public let NSPersistentStoreOperationError = 134070
public let NSPersistentStoreOpenError = 134080
public let NSPersistentStoreTimeoutError = 134090
public let NSPersistentStoreUnsupportedRequestTypeError = 134091
public let NSPersistentStoreIncompatibleVersionHashError = 134100
public let NSMigrationError = 134110
public let NSMigrationMissingSourceModelError = 134130
public let NSMigrationMissingMappingModelError = 134140
public let NSSQLiteError = 134180
public let NSInferredMappingModelError = 134190
public let NSMigrationConstraintViolationError = 134111
public let NSMigrationCancelledError = 134120
public let NSMigrationManagerSourceStoreError = 134150
public let NSMigrationManagerDestinationStoreError = 134160
public let NSEntityMigrationPolicyError = 134170
public let NSExternalRecordImportError = 134200
public let NSPersistentHistoryTokenExpiredError = 134301
public let NSManagedObjectModelReferenceNotFoundError = 134504
public let NSStagedMigrationFrameworkVersionMismatchError = 134505
public let NSStagedMigrationBackwardMigrationError = 134506

// userInfo keys of validation errors.
public let NSValidationObjectErrorKey = "NSValidationErrorObject"
public let NSValidationKeyErrorKey = "NSValidationErrorKey"
public let NSValidationPredicateErrorKey = "NSValidationErrorPredicate"
public let NSValidationValueErrorKey = "NSValidationErrorValue"
public let NSDetailedErrorsKey = "NSDetailedErrors"
public let NSAffectedObjectsErrorKey = "NSAffectedObjectsErrorKey"
public let NSAffectedStoresErrorKey = "NSAffectedStoresErrorKey"
/// The `NSMergeConflict`s (or `NSConstraintConflict`s) a save could not resolve, in the userInfo
/// of a 133020/133021 error.
public let NSPersistentStoreSaveConflictsErrorKey = "conflictList"
/// The userInfo key of the SQLite result code behind a store error (and the domain of errors
/// that carry one).
public let NSSQLiteErrorDomain = "NSSQLiteErrorDomain"

/// Builds Core Data's errors: `NSCocoaErrorDomain`, Apple's code, and a message that says what to do.
enum CoreDataError {
    static func make(_ code: Int, _ message: String, _ userInfo: [String: Any] = [:]) -> NSError {
        var info = userInfo
        info[NSLocalizedDescriptionKey] = message
        return NSError(domain: NSCocoaErrorDomain, code: code, userInfo: info)
    }
}

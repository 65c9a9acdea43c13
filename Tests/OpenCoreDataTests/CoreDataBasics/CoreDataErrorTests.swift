import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Core Data reports failures as `NSError`s in `NSCocoaErrorDomain`, with the codes and
/// userInfo keys Apple's `CoreDataErrors.h` declares; Swift code matches them as `CocoaError`s
/// by name (`.validationMissingMandatoryProperty`) and reads their userInfo through typed
/// properties (`validationKey`, `persistentStoreSaveConflicts`).
final class CoreDataErrorTests: XCTestCase {
    /// Every code with Apple's value, and each `CocoaError.Code` name with the same value.
    func testErrorCodesHaveApplesValues() {
        let codes: [(Int, Int, CocoaError.Code)] = [
            (NSManagedObjectValidationError, 1550, .managedObjectValidation),
            (NSValidationMultipleErrorsError, 1560, .validationMultipleErrors),
            (NSValidationMissingMandatoryPropertyError, 1570, .validationMissingMandatoryProperty),
            (NSValidationRelationshipLacksMinimumCountError, 1580, .validationRelationshipLacksMinimumCount),
            (NSValidationRelationshipExceedsMaximumCountError, 1590, .validationRelationshipExceedsMaximumCount),
            (NSValidationRelationshipDeniedDeleteError, 1600, .validationRelationshipDeniedDelete),
            (NSValidationNumberTooLargeError, 1610, .validationNumberTooLarge),
            (NSValidationNumberTooSmallError, 1620, .validationNumberTooSmall),
            (NSValidationDateTooLateError, 1630, .validationDateTooLate),
            (NSValidationDateTooSoonError, 1640, .validationDateTooSoon),
            (NSValidationInvalidDateError, 1650, .validationInvalidDate),
            (NSValidationStringTooLongError, 1660, .validationStringTooLong),
            (NSValidationStringTooShortError, 1670, .validationStringTooShort),
            (NSValidationStringPatternMatchingError, 1680, .validationStringPatternMatching),
            (NSManagedObjectContextLockingError, 132000, .managedObjectContextLocking),
            (NSPersistentStoreCoordinatorLockingError, 132010, .persistentStoreCoordinatorLocking),
            (NSManagedObjectReferentialIntegrityError, 133000, .managedObjectReferentialIntegrity),
            (NSManagedObjectExternalRelationshipError, 133010, .managedObjectExternalRelationship),
            (NSManagedObjectMergeError, 133020, .managedObjectMerge),
            (NSManagedObjectConstraintMergeError, 133021, .managedObjectConstraintMerge),
            (NSPersistentStoreInvalidTypeError, 134000, .persistentStoreInvalidType),
            (NSPersistentStoreTypeMismatchError, 134010, .persistentStoreTypeMismatch),
            (NSPersistentStoreIncompatibleSchemaError, 134020, .persistentStoreIncompatibleSchema),
            (NSPersistentStoreSaveError, 134030, .persistentStoreSave),
            (NSPersistentStoreIncompleteSaveError, 134040, .persistentStoreIncompleteSave),
            (NSPersistentStoreSaveConflictsError, 134050, .persistentStoreSaveConflicts),
            (NSCoreDataError, 134060, .coreData),
            (NSPersistentStoreOperationError, 134070, .persistentStoreOperation),
            (NSPersistentStoreOpenError, 134080, .persistentStoreOpen),
            (NSPersistentStoreTimeoutError, 134090, .persistentStoreTimeout),
            (NSPersistentStoreUnsupportedRequestTypeError, 134091, .persistentStoreUnsupportedRequestType),
            (NSPersistentStoreIncompatibleVersionHashError, 134100, .persistentStoreIncompatibleVersionHash),
            (NSMigrationError, 134110, .migration),
            (NSMigrationCancelledError, 134120, .migrationCancelled),
            (NSMigrationMissingSourceModelError, 134130, .migrationMissingSourceModel),
            (NSMigrationMissingMappingModelError, 134140, .migrationMissingMappingModel),
            (NSMigrationManagerSourceStoreError, 134150, .migrationManagerSourceStore),
            (NSMigrationManagerDestinationStoreError, 134160, .migrationManagerDestinationStore),
            (NSEntityMigrationPolicyError, 134170, .entityMigrationPolicy),
            (NSSQLiteError, 134180, .sqlite),
            (NSInferredMappingModelError, 134190, .inferredMappingModel),
            (NSExternalRecordImportError, 134200, .externalRecordImport),
        ]
        for (constant, apple, name) in codes {
            XCTAssertEqual(constant, apple)
            XCTAssertEqual(name.rawValue, apple, "CocoaError.Code for \(apple)")
            XCTAssertEqual(CocoaError(name).code.rawValue, apple)
        }
        XCTAssertEqual(NSManagedObjectConstraintValidationError, 1551)
        XCTAssertEqual(NSValidationInvalidURIError, 1690)
        XCTAssertEqual(NSMigrationConstraintViolationError, 134111)
        XCTAssertEqual(NSPersistentHistoryTokenExpiredError, 134301)
        XCTAssertEqual(NSManagedObjectModelReferenceNotFoundError, 134504)
        XCTAssertEqual(NSStagedMigrationFrameworkVersionMismatchError, 134505)
        XCTAssertEqual(NSStagedMigrationBackwardMigrationError, 134506)
        XCTAssertEqual(CocoaError.managedObjectValidation, CocoaError.Code.managedObjectValidation)
        XCTAssertEqual(NSPersistentStoreSaveConflictsErrorKey, "conflictList")
        XCTAssertEqual(NSSQLiteErrorDomain, "NSSQLiteErrorDomain")
    }

    /// A save that fails validation throws an error Swift code catches as a `CocoaError` by the
    /// code's name, naming the key, the object and the value.
    func testAValidationFailureIsCaughtAsACocoaErrorWithItsKeyAndObject() throws {
        let stack = TestStack()
        try stack.context.performAndWait {
            let employee = Employee(context: stack.context)   // firstName is required
            do {
                try stack.context.save()
                XCTFail("the save must fail")
            } catch let error as CocoaError where error.code == .validationMissingMandatoryProperty {
                XCTAssertEqual(error.validationKey, "firstName")
                XCTAssertTrue(error.validationObject as? Employee === employee)
                XCTAssertNil(error.validationValue)
            }
        }
    }

    /// An optimistic-locking failure under the error policy carries its conflicts, readable as
    /// `persistentStoreSaveConflicts`.
    func testAMergeConflictCarriesItsConflicts() throws {
        let stack = TestStack()
        let other = stack.newContext()
        let employee: Employee = try stack.context.performAndWait {
            let e = stack.employee("Original")
            try stack.context.save()
            return e
        }
        let id = stack.context.performAndWait { employee.objectID }
        try other.performAndWait {
            let theirs = try other.existingObject(with: id) as! Employee
            theirs.salary = 2
            try other.save()
        }
        try stack.context.performAndWait {
            employee.salary = 3
            do {
                try stack.context.save()
                XCTFail("the save must fail under the error policy")
            } catch let error as CocoaError where error.code == .managedObjectMerge {
                let conflicts = try XCTUnwrap(error.persistentStoreSaveConflicts)
                XCTAssertEqual(conflicts.count, 1)
                XCTAssertTrue(conflicts.first?.sourceObject === employee)
            }
        }
    }
}

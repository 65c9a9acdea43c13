import OpenCoreData

// Core Data's error codes (in NSCocoaErrorDomain), its error userInfo keys, and the CocoaError
// extensions the CoreData overlay declares. Apple imports each code as `var Name: Int { get }`
// and each key as `let Name: String`.

// MARK: Error codes

/// api: NSManagedObjectValidationError
func api_CoreDataErrors_NSManagedObjectValidationError() {
    let _: Int = NSManagedObjectValidationError
}

/// api: NSManagedObjectConstraintValidationError
func api_CoreDataErrors_NSManagedObjectConstraintValidationError() {
    let _: Int = NSManagedObjectConstraintValidationError
}

/// api: NSValidationMultipleErrorsError
func api_CoreDataErrors_NSValidationMultipleErrorsError() {
    let _: Int = NSValidationMultipleErrorsError
}

/// api: NSValidationMissingMandatoryPropertyError
func api_CoreDataErrors_NSValidationMissingMandatoryPropertyError() {
    let _: Int = NSValidationMissingMandatoryPropertyError
}

/// api: NSValidationRelationshipLacksMinimumCountError
func api_CoreDataErrors_NSValidationRelationshipLacksMinimumCountError() {
    let _: Int = NSValidationRelationshipLacksMinimumCountError
}

/// api: NSValidationRelationshipExceedsMaximumCountError
func api_CoreDataErrors_NSValidationRelationshipExceedsMaximumCountError() {
    let _: Int = NSValidationRelationshipExceedsMaximumCountError
}

/// api: NSValidationRelationshipDeniedDeleteError
func api_CoreDataErrors_NSValidationRelationshipDeniedDeleteError() {
    let _: Int = NSValidationRelationshipDeniedDeleteError
}

/// api: NSValidationNumberTooLargeError
func api_CoreDataErrors_NSValidationNumberTooLargeError() {
    let _: Int = NSValidationNumberTooLargeError
}

/// api: NSValidationNumberTooSmallError
func api_CoreDataErrors_NSValidationNumberTooSmallError() {
    let _: Int = NSValidationNumberTooSmallError
}

/// api: NSValidationDateTooLateError
func api_CoreDataErrors_NSValidationDateTooLateError() {
    let _: Int = NSValidationDateTooLateError
}

/// api: NSValidationDateTooSoonError
func api_CoreDataErrors_NSValidationDateTooSoonError() {
    let _: Int = NSValidationDateTooSoonError
}

/// api: NSValidationInvalidDateError
func api_CoreDataErrors_NSValidationInvalidDateError() {
    let _: Int = NSValidationInvalidDateError
}

/// api: NSValidationStringTooLongError
func api_CoreDataErrors_NSValidationStringTooLongError() {
    let _: Int = NSValidationStringTooLongError
}

/// api: NSValidationStringTooShortError
func api_CoreDataErrors_NSValidationStringTooShortError() {
    let _: Int = NSValidationStringTooShortError
}

/// api: NSValidationStringPatternMatchingError
func api_CoreDataErrors_NSValidationStringPatternMatchingError() {
    let _: Int = NSValidationStringPatternMatchingError
}

/// api: NSValidationInvalidURIError
func api_CoreDataErrors_NSValidationInvalidURIError() {
    let _: Int = NSValidationInvalidURIError
}

/// api: NSManagedObjectContextLockingError
func api_CoreDataErrors_NSManagedObjectContextLockingError() {
    let _: Int = NSManagedObjectContextLockingError
}

/// api: NSPersistentStoreCoordinatorLockingError
func api_CoreDataErrors_NSPersistentStoreCoordinatorLockingError() {
    let _: Int = NSPersistentStoreCoordinatorLockingError
}

/// api: NSManagedObjectReferentialIntegrityError
func api_CoreDataErrors_NSManagedObjectReferentialIntegrityError() {
    let _: Int = NSManagedObjectReferentialIntegrityError
}

/// api: NSManagedObjectExternalRelationshipError
func api_CoreDataErrors_NSManagedObjectExternalRelationshipError() {
    let _: Int = NSManagedObjectExternalRelationshipError
}

/// api: NSManagedObjectMergeError
func api_CoreDataErrors_NSManagedObjectMergeError() {
    let _: Int = NSManagedObjectMergeError
}

/// api: NSManagedObjectConstraintMergeError
func api_CoreDataErrors_NSManagedObjectConstraintMergeError() {
    let _: Int = NSManagedObjectConstraintMergeError
}

/// api: NSPersistentStoreInvalidTypeError
func api_CoreDataErrors_NSPersistentStoreInvalidTypeError() {
    let _: Int = NSPersistentStoreInvalidTypeError
}

/// api: NSPersistentStoreTypeMismatchError
func api_CoreDataErrors_NSPersistentStoreTypeMismatchError() {
    let _: Int = NSPersistentStoreTypeMismatchError
}

/// api: NSPersistentStoreIncompatibleSchemaError
func api_CoreDataErrors_NSPersistentStoreIncompatibleSchemaError() {
    let _: Int = NSPersistentStoreIncompatibleSchemaError
}

/// api: NSPersistentStoreSaveError
func api_CoreDataErrors_NSPersistentStoreSaveError() {
    let _: Int = NSPersistentStoreSaveError
}

/// api: NSPersistentStoreIncompleteSaveError
func api_CoreDataErrors_NSPersistentStoreIncompleteSaveError() {
    let _: Int = NSPersistentStoreIncompleteSaveError
}

/// api: NSPersistentStoreSaveConflictsError
func api_CoreDataErrors_NSPersistentStoreSaveConflictsError() {
    let _: Int = NSPersistentStoreSaveConflictsError
}

/// api: NSCoreDataError
func api_CoreDataErrors_NSCoreDataError() {
    let _: Int = NSCoreDataError
}

/// api: NSPersistentStoreOperationError
func api_CoreDataErrors_NSPersistentStoreOperationError() {
    let _: Int = NSPersistentStoreOperationError
}

/// api: NSPersistentStoreOpenError
func api_CoreDataErrors_NSPersistentStoreOpenError() {
    let _: Int = NSPersistentStoreOpenError
}

/// api: NSPersistentStoreTimeoutError
func api_CoreDataErrors_NSPersistentStoreTimeoutError() {
    let _: Int = NSPersistentStoreTimeoutError
}

/// api: NSPersistentStoreUnsupportedRequestTypeError
func api_CoreDataErrors_NSPersistentStoreUnsupportedRequestTypeError() {
    let _: Int = NSPersistentStoreUnsupportedRequestTypeError
}

/// api: NSPersistentStoreIncompatibleVersionHashError
func api_CoreDataErrors_NSPersistentStoreIncompatibleVersionHashError() {
    let _: Int = NSPersistentStoreIncompatibleVersionHashError
}

/// api: NSMigrationError
func api_CoreDataErrors_NSMigrationError() {
    let _: Int = NSMigrationError
}

/// api: NSMigrationConstraintViolationError
func api_CoreDataErrors_NSMigrationConstraintViolationError() {
    let _: Int = NSMigrationConstraintViolationError
}

/// api: NSMigrationCancelledError
func api_CoreDataErrors_NSMigrationCancelledError() {
    let _: Int = NSMigrationCancelledError
}

/// api: NSMigrationMissingSourceModelError
func api_CoreDataErrors_NSMigrationMissingSourceModelError() {
    let _: Int = NSMigrationMissingSourceModelError
}

/// api: NSMigrationMissingMappingModelError
func api_CoreDataErrors_NSMigrationMissingMappingModelError() {
    let _: Int = NSMigrationMissingMappingModelError
}

/// api: NSMigrationManagerSourceStoreError
func api_CoreDataErrors_NSMigrationManagerSourceStoreError() {
    let _: Int = NSMigrationManagerSourceStoreError
}

/// api: NSMigrationManagerDestinationStoreError
func api_CoreDataErrors_NSMigrationManagerDestinationStoreError() {
    let _: Int = NSMigrationManagerDestinationStoreError
}

/// api: NSEntityMigrationPolicyError
func api_CoreDataErrors_NSEntityMigrationPolicyError() {
    let _: Int = NSEntityMigrationPolicyError
}

/// api: NSSQLiteError
func api_CoreDataErrors_NSSQLiteError() {
    let _: Int = NSSQLiteError
}

/// api: NSInferredMappingModelError
func api_CoreDataErrors_NSInferredMappingModelError() {
    let _: Int = NSInferredMappingModelError
}

/// api: NSExternalRecordImportError
func api_CoreDataErrors_NSExternalRecordImportError() {
    let _: Int = NSExternalRecordImportError
}

/// api: NSPersistentHistoryTokenExpiredError
func api_CoreDataErrors_NSPersistentHistoryTokenExpiredError() {
    let _: Int = NSPersistentHistoryTokenExpiredError
}

/// api: NSManagedObjectModelReferenceNotFoundError
func api_CoreDataErrors_NSManagedObjectModelReferenceNotFoundError() {
    let _: Int = NSManagedObjectModelReferenceNotFoundError
}

/// api: NSStagedMigrationFrameworkVersionMismatchError
func api_CoreDataErrors_NSStagedMigrationFrameworkVersionMismatchError() {
    let _: Int = NSStagedMigrationFrameworkVersionMismatchError
}

/// api: NSStagedMigrationBackwardMigrationError
func api_CoreDataErrors_NSStagedMigrationBackwardMigrationError() {
    let _: Int = NSStagedMigrationBackwardMigrationError
}

// MARK: userInfo keys and the SQLite error domain

/// api: NSDetailedErrorsKey
func api_CoreDataErrors_NSDetailedErrorsKey() {
    let _: String = NSDetailedErrorsKey
}

/// api: NSValidationObjectErrorKey
func api_CoreDataErrors_NSValidationObjectErrorKey() {
    let _: String = NSValidationObjectErrorKey
}

/// api: NSValidationKeyErrorKey
func api_CoreDataErrors_NSValidationKeyErrorKey() {
    let _: String = NSValidationKeyErrorKey
}

/// api: NSValidationPredicateErrorKey
func api_CoreDataErrors_NSValidationPredicateErrorKey() {
    let _: String = NSValidationPredicateErrorKey
}

/// api: NSValidationValueErrorKey
func api_CoreDataErrors_NSValidationValueErrorKey() {
    let _: String = NSValidationValueErrorKey
}

/// api: NSAffectedStoresErrorKey
func api_CoreDataErrors_NSAffectedStoresErrorKey() {
    let _: String = NSAffectedStoresErrorKey
}

/// api: NSAffectedObjectsErrorKey
func api_CoreDataErrors_NSAffectedObjectsErrorKey() {
    let _: String = NSAffectedObjectsErrorKey
}

/// api: NSPersistentStoreSaveConflictsErrorKey
func api_CoreDataErrors_NSPersistentStoreSaveConflictsErrorKey() {
    let _: String = NSPersistentStoreSaveConflictsErrorKey
}

/// api: NSSQLiteErrorDomain
func api_CoreDataErrors_NSSQLiteErrorDomain() {
    let _: String = NSSQLiteErrorDomain
}

// MARK: CocoaError.Code statics (extension CocoaError.Code in the CoreData overlay)

/// api: CocoaError.Code.managedObjectValidation
func api_CocoaError_Code_managedObjectValidation() {
    let _: CocoaError.Code = CocoaError.Code.managedObjectValidation
}

/// api: CocoaError.Code.validationMultipleErrors
func api_CocoaError_Code_validationMultipleErrors() {
    let _: CocoaError.Code = CocoaError.Code.validationMultipleErrors
}

/// api: CocoaError.Code.validationMissingMandatoryProperty
func api_CocoaError_Code_validationMissingMandatoryProperty() {
    let _: CocoaError.Code = CocoaError.Code.validationMissingMandatoryProperty
}

/// api: CocoaError.Code.validationRelationshipLacksMinimumCount
func api_CocoaError_Code_validationRelationshipLacksMinimumCount() {
    let _: CocoaError.Code = CocoaError.Code.validationRelationshipLacksMinimumCount
}

/// api: CocoaError.Code.validationRelationshipExceedsMaximumCount
func api_CocoaError_Code_validationRelationshipExceedsMaximumCount() {
    let _: CocoaError.Code = CocoaError.Code.validationRelationshipExceedsMaximumCount
}

/// api: CocoaError.Code.validationRelationshipDeniedDelete
func api_CocoaError_Code_validationRelationshipDeniedDelete() {
    let _: CocoaError.Code = CocoaError.Code.validationRelationshipDeniedDelete
}

/// api: CocoaError.Code.validationNumberTooLarge
func api_CocoaError_Code_validationNumberTooLarge() {
    let _: CocoaError.Code = CocoaError.Code.validationNumberTooLarge
}

/// api: CocoaError.Code.validationNumberTooSmall
func api_CocoaError_Code_validationNumberTooSmall() {
    let _: CocoaError.Code = CocoaError.Code.validationNumberTooSmall
}

/// api: CocoaError.Code.validationDateTooLate
func api_CocoaError_Code_validationDateTooLate() {
    let _: CocoaError.Code = CocoaError.Code.validationDateTooLate
}

/// api: CocoaError.Code.validationDateTooSoon
func api_CocoaError_Code_validationDateTooSoon() {
    let _: CocoaError.Code = CocoaError.Code.validationDateTooSoon
}

/// api: CocoaError.Code.validationInvalidDate
func api_CocoaError_Code_validationInvalidDate() {
    let _: CocoaError.Code = CocoaError.Code.validationInvalidDate
}

/// api: CocoaError.Code.validationStringTooLong
func api_CocoaError_Code_validationStringTooLong() {
    let _: CocoaError.Code = CocoaError.Code.validationStringTooLong
}

/// api: CocoaError.Code.validationStringTooShort
func api_CocoaError_Code_validationStringTooShort() {
    let _: CocoaError.Code = CocoaError.Code.validationStringTooShort
}

/// api: CocoaError.Code.validationStringPatternMatching
func api_CocoaError_Code_validationStringPatternMatching() {
    let _: CocoaError.Code = CocoaError.Code.validationStringPatternMatching
}

/// api: CocoaError.Code.managedObjectContextLocking
func api_CocoaError_Code_managedObjectContextLocking() {
    let _: CocoaError.Code = CocoaError.Code.managedObjectContextLocking
}

/// api: CocoaError.Code.persistentStoreCoordinatorLocking
func api_CocoaError_Code_persistentStoreCoordinatorLocking() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreCoordinatorLocking
}

/// api: CocoaError.Code.managedObjectReferentialIntegrity
func api_CocoaError_Code_managedObjectReferentialIntegrity() {
    let _: CocoaError.Code = CocoaError.Code.managedObjectReferentialIntegrity
}

/// api: CocoaError.Code.managedObjectExternalRelationship
func api_CocoaError_Code_managedObjectExternalRelationship() {
    let _: CocoaError.Code = CocoaError.Code.managedObjectExternalRelationship
}

/// api: CocoaError.Code.managedObjectMerge
func api_CocoaError_Code_managedObjectMerge() {
    let _: CocoaError.Code = CocoaError.Code.managedObjectMerge
}

/// api: CocoaError.Code.managedObjectConstraintMerge
func api_CocoaError_Code_managedObjectConstraintMerge() {
    let _: CocoaError.Code = CocoaError.Code.managedObjectConstraintMerge
}

/// api: CocoaError.Code.persistentStoreInvalidType
func api_CocoaError_Code_persistentStoreInvalidType() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreInvalidType
}

/// api: CocoaError.Code.persistentStoreTypeMismatch
func api_CocoaError_Code_persistentStoreTypeMismatch() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreTypeMismatch
}

/// api: CocoaError.Code.persistentStoreIncompatibleSchema
func api_CocoaError_Code_persistentStoreIncompatibleSchema() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreIncompatibleSchema
}

/// api: CocoaError.Code.persistentStoreSave
func api_CocoaError_Code_persistentStoreSave() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreSave
}

/// api: CocoaError.Code.persistentStoreIncompleteSave
func api_CocoaError_Code_persistentStoreIncompleteSave() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreIncompleteSave
}

/// api: CocoaError.Code.persistentStoreSaveConflicts
func api_CocoaError_Code_persistentStoreSaveConflicts() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreSaveConflicts
}

/// api: CocoaError.Code.coreData
func api_CocoaError_Code_coreData() {
    let _: CocoaError.Code = CocoaError.Code.coreData
}

/// api: CocoaError.Code.persistentStoreOperation
func api_CocoaError_Code_persistentStoreOperation() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreOperation
}

/// api: CocoaError.Code.persistentStoreOpen
func api_CocoaError_Code_persistentStoreOpen() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreOpen
}

/// api: CocoaError.Code.persistentStoreTimeout
func api_CocoaError_Code_persistentStoreTimeout() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreTimeout
}

/// api: CocoaError.Code.persistentStoreUnsupportedRequestType
func api_CocoaError_Code_persistentStoreUnsupportedRequestType() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreUnsupportedRequestType
}

/// api: CocoaError.Code.persistentStoreIncompatibleVersionHash
func api_CocoaError_Code_persistentStoreIncompatibleVersionHash() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreIncompatibleVersionHash
}

/// api: CocoaError.Code.migration
func api_CocoaError_Code_migration() {
    let _: CocoaError.Code = CocoaError.Code.migration
}

/// api: CocoaError.Code.migrationCancelled
func api_CocoaError_Code_migrationCancelled() {
    let _: CocoaError.Code = CocoaError.Code.migrationCancelled
}

/// api: CocoaError.Code.migrationMissingSourceModel
func api_CocoaError_Code_migrationMissingSourceModel() {
    let _: CocoaError.Code = CocoaError.Code.migrationMissingSourceModel
}

/// api: CocoaError.Code.migrationMissingMappingModel
func api_CocoaError_Code_migrationMissingMappingModel() {
    let _: CocoaError.Code = CocoaError.Code.migrationMissingMappingModel
}

/// api: CocoaError.Code.migrationManagerSourceStore
func api_CocoaError_Code_migrationManagerSourceStore() {
    let _: CocoaError.Code = CocoaError.Code.migrationManagerSourceStore
}

/// api: CocoaError.Code.migrationManagerDestinationStore
func api_CocoaError_Code_migrationManagerDestinationStore() {
    let _: CocoaError.Code = CocoaError.Code.migrationManagerDestinationStore
}

/// api: CocoaError.Code.entityMigrationPolicy
func api_CocoaError_Code_entityMigrationPolicy() {
    let _: CocoaError.Code = CocoaError.Code.entityMigrationPolicy
}

/// api: CocoaError.Code.sqlite
func api_CocoaError_Code_sqlite() {
    let _: CocoaError.Code = CocoaError.Code.sqlite
}

/// api: CocoaError.Code.inferredMappingModel
func api_CocoaError_Code_inferredMappingModel() {
    let _: CocoaError.Code = CocoaError.Code.inferredMappingModel
}

/// api: CocoaError.Code.externalRecordImport
func api_CocoaError_Code_externalRecordImport() {
    let _: CocoaError.Code = CocoaError.Code.externalRecordImport
}

// MARK: CocoaError statics (extension CocoaError in the CoreData overlay): `catch CocoaError.managedObjectValidation`

/// api: CocoaError.managedObjectValidation
func api_CocoaError_managedObjectValidation() {
    let _: CocoaError.Code = CocoaError.managedObjectValidation
}

/// api: CocoaError.validationMultipleErrors
func api_CocoaError_validationMultipleErrors() {
    let _: CocoaError.Code = CocoaError.validationMultipleErrors
}

/// api: CocoaError.validationMissingMandatoryProperty
func api_CocoaError_validationMissingMandatoryProperty() {
    let _: CocoaError.Code = CocoaError.validationMissingMandatoryProperty
}

/// api: CocoaError.validationRelationshipLacksMinimumCount
func api_CocoaError_validationRelationshipLacksMinimumCount() {
    let _: CocoaError.Code = CocoaError.validationRelationshipLacksMinimumCount
}

/// api: CocoaError.validationRelationshipExceedsMaximumCount
func api_CocoaError_validationRelationshipExceedsMaximumCount() {
    let _: CocoaError.Code = CocoaError.validationRelationshipExceedsMaximumCount
}

/// api: CocoaError.validationRelationshipDeniedDelete
func api_CocoaError_validationRelationshipDeniedDelete() {
    let _: CocoaError.Code = CocoaError.validationRelationshipDeniedDelete
}

/// api: CocoaError.validationNumberTooLarge
func api_CocoaError_validationNumberTooLarge() {
    let _: CocoaError.Code = CocoaError.validationNumberTooLarge
}

/// api: CocoaError.validationNumberTooSmall
func api_CocoaError_validationNumberTooSmall() {
    let _: CocoaError.Code = CocoaError.validationNumberTooSmall
}

/// api: CocoaError.validationDateTooLate
func api_CocoaError_validationDateTooLate() {
    let _: CocoaError.Code = CocoaError.validationDateTooLate
}

/// api: CocoaError.validationDateTooSoon
func api_CocoaError_validationDateTooSoon() {
    let _: CocoaError.Code = CocoaError.validationDateTooSoon
}

/// api: CocoaError.validationInvalidDate
func api_CocoaError_validationInvalidDate() {
    let _: CocoaError.Code = CocoaError.validationInvalidDate
}

/// api: CocoaError.validationStringTooLong
func api_CocoaError_validationStringTooLong() {
    let _: CocoaError.Code = CocoaError.validationStringTooLong
}

/// api: CocoaError.validationStringTooShort
func api_CocoaError_validationStringTooShort() {
    let _: CocoaError.Code = CocoaError.validationStringTooShort
}

/// api: CocoaError.validationStringPatternMatching
func api_CocoaError_validationStringPatternMatching() {
    let _: CocoaError.Code = CocoaError.validationStringPatternMatching
}

/// api: CocoaError.managedObjectContextLocking
func api_CocoaError_managedObjectContextLocking() {
    let _: CocoaError.Code = CocoaError.managedObjectContextLocking
}

/// api: CocoaError.persistentStoreCoordinatorLocking
func api_CocoaError_persistentStoreCoordinatorLocking() {
    let _: CocoaError.Code = CocoaError.persistentStoreCoordinatorLocking
}

/// api: CocoaError.managedObjectReferentialIntegrity
func api_CocoaError_managedObjectReferentialIntegrity() {
    let _: CocoaError.Code = CocoaError.managedObjectReferentialIntegrity
}

/// api: CocoaError.managedObjectExternalRelationship
func api_CocoaError_managedObjectExternalRelationship() {
    let _: CocoaError.Code = CocoaError.managedObjectExternalRelationship
}

/// api: CocoaError.managedObjectMerge
func api_CocoaError_managedObjectMerge() {
    let _: CocoaError.Code = CocoaError.managedObjectMerge
}

/// api: CocoaError.managedObjectConstraintMerge
func api_CocoaError_managedObjectConstraintMerge() {
    let _: CocoaError.Code = CocoaError.managedObjectConstraintMerge
}

/// api: CocoaError.persistentStoreInvalidType
func api_CocoaError_persistentStoreInvalidType() {
    let _: CocoaError.Code = CocoaError.persistentStoreInvalidType
}

/// api: CocoaError.persistentStoreTypeMismatch
func api_CocoaError_persistentStoreTypeMismatch() {
    let _: CocoaError.Code = CocoaError.persistentStoreTypeMismatch
}

/// api: CocoaError.persistentStoreIncompatibleSchema
func api_CocoaError_persistentStoreIncompatibleSchema() {
    let _: CocoaError.Code = CocoaError.persistentStoreIncompatibleSchema
}

/// api: CocoaError.persistentStoreSave
func api_CocoaError_persistentStoreSave() {
    let _: CocoaError.Code = CocoaError.persistentStoreSave
}

/// api: CocoaError.persistentStoreIncompleteSave
func api_CocoaError_persistentStoreIncompleteSave() {
    let _: CocoaError.Code = CocoaError.persistentStoreIncompleteSave
}

/// api: CocoaError.persistentStoreSaveConflicts (type property)
func api_CocoaError_persistentStoreSaveConflicts_typeProperty() {
    let _: CocoaError.Code = CocoaError.persistentStoreSaveConflicts
}

/// api: CocoaError.coreData
func api_CocoaError_coreData() {
    let _: CocoaError.Code = CocoaError.coreData
}

/// api: CocoaError.persistentStoreOperation
func api_CocoaError_persistentStoreOperation() {
    let _: CocoaError.Code = CocoaError.persistentStoreOperation
}

/// api: CocoaError.persistentStoreOpen
func api_CocoaError_persistentStoreOpen() {
    let _: CocoaError.Code = CocoaError.persistentStoreOpen
}

/// api: CocoaError.persistentStoreTimeout
func api_CocoaError_persistentStoreTimeout() {
    let _: CocoaError.Code = CocoaError.persistentStoreTimeout
}

/// api: CocoaError.persistentStoreUnsupportedRequestType
func api_CocoaError_persistentStoreUnsupportedRequestType() {
    let _: CocoaError.Code = CocoaError.persistentStoreUnsupportedRequestType
}

/// api: CocoaError.persistentStoreIncompatibleVersionHash
func api_CocoaError_persistentStoreIncompatibleVersionHash() {
    let _: CocoaError.Code = CocoaError.persistentStoreIncompatibleVersionHash
}

/// api: CocoaError.migration
func api_CocoaError_migration() {
    let _: CocoaError.Code = CocoaError.migration
}

/// api: CocoaError.migrationCancelled
func api_CocoaError_migrationCancelled() {
    let _: CocoaError.Code = CocoaError.migrationCancelled
}

/// api: CocoaError.migrationMissingSourceModel
func api_CocoaError_migrationMissingSourceModel() {
    let _: CocoaError.Code = CocoaError.migrationMissingSourceModel
}

/// api: CocoaError.migrationMissingMappingModel
func api_CocoaError_migrationMissingMappingModel() {
    let _: CocoaError.Code = CocoaError.migrationMissingMappingModel
}

/// api: CocoaError.migrationManagerSourceStore
func api_CocoaError_migrationManagerSourceStore() {
    let _: CocoaError.Code = CocoaError.migrationManagerSourceStore
}

/// api: CocoaError.migrationManagerDestinationStore
func api_CocoaError_migrationManagerDestinationStore() {
    let _: CocoaError.Code = CocoaError.migrationManagerDestinationStore
}

/// api: CocoaError.entityMigrationPolicy
func api_CocoaError_entityMigrationPolicy() {
    let _: CocoaError.Code = CocoaError.entityMigrationPolicy
}

/// api: CocoaError.sqlite
func api_CocoaError_sqlite() {
    let _: CocoaError.Code = CocoaError.sqlite
}

/// api: CocoaError.inferredMappingModel
func api_CocoaError_inferredMappingModel() {
    let _: CocoaError.Code = CocoaError.inferredMappingModel
}

/// api: CocoaError.externalRecordImport
func api_CocoaError_externalRecordImport() {
    let _: CocoaError.Code = CocoaError.externalRecordImport
}

// MARK: CocoaError.Code statics with the Swift 3 names Apple deprecated (still present)

/// api: CocoaError.Code.managedObjectValidationError
func api_CocoaError_Code_managedObjectValidationError() {
    let _: CocoaError.Code = CocoaError.Code.managedObjectValidationError
}

/// api: CocoaError.Code.validationMultipleErrorsError
func api_CocoaError_Code_validationMultipleErrorsError() {
    let _: CocoaError.Code = CocoaError.Code.validationMultipleErrorsError
}

/// api: CocoaError.Code.validationMissingMandatoryPropertyError
func api_CocoaError_Code_validationMissingMandatoryPropertyError() {
    let _: CocoaError.Code = CocoaError.Code.validationMissingMandatoryPropertyError
}

/// api: CocoaError.Code.validationRelationshipLacksMinimumCountError
func api_CocoaError_Code_validationRelationshipLacksMinimumCountError() {
    let _: CocoaError.Code = CocoaError.Code.validationRelationshipLacksMinimumCountError
}

/// api: CocoaError.Code.validationRelationshipExceedsMaximumCountError
func api_CocoaError_Code_validationRelationshipExceedsMaximumCountError() {
    let _: CocoaError.Code = CocoaError.Code.validationRelationshipExceedsMaximumCountError
}

/// api: CocoaError.Code.validationRelationshipDeniedDeleteError
func api_CocoaError_Code_validationRelationshipDeniedDeleteError() {
    let _: CocoaError.Code = CocoaError.Code.validationRelationshipDeniedDeleteError
}

/// api: CocoaError.Code.validationNumberTooLargeError
func api_CocoaError_Code_validationNumberTooLargeError() {
    let _: CocoaError.Code = CocoaError.Code.validationNumberTooLargeError
}

/// api: CocoaError.Code.validationNumberTooSmallError
func api_CocoaError_Code_validationNumberTooSmallError() {
    let _: CocoaError.Code = CocoaError.Code.validationNumberTooSmallError
}

/// api: CocoaError.Code.validationDateTooLateError
func api_CocoaError_Code_validationDateTooLateError() {
    let _: CocoaError.Code = CocoaError.Code.validationDateTooLateError
}

/// api: CocoaError.Code.validationDateTooSoonError
func api_CocoaError_Code_validationDateTooSoonError() {
    let _: CocoaError.Code = CocoaError.Code.validationDateTooSoonError
}

/// api: CocoaError.Code.validationInvalidDateError
func api_CocoaError_Code_validationInvalidDateError() {
    let _: CocoaError.Code = CocoaError.Code.validationInvalidDateError
}

/// api: CocoaError.Code.validationStringTooLongError
func api_CocoaError_Code_validationStringTooLongError() {
    let _: CocoaError.Code = CocoaError.Code.validationStringTooLongError
}

/// api: CocoaError.Code.validationStringTooShortError
func api_CocoaError_Code_validationStringTooShortError() {
    let _: CocoaError.Code = CocoaError.Code.validationStringTooShortError
}

/// api: CocoaError.Code.validationStringPatternMatchingError
func api_CocoaError_Code_validationStringPatternMatchingError() {
    let _: CocoaError.Code = CocoaError.Code.validationStringPatternMatchingError
}

/// api: CocoaError.Code.managedObjectContextLockingError
func api_CocoaError_Code_managedObjectContextLockingError() {
    let _: CocoaError.Code = CocoaError.Code.managedObjectContextLockingError
}

/// api: CocoaError.Code.persistentStoreCoordinatorLockingError
func api_CocoaError_Code_persistentStoreCoordinatorLockingError() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreCoordinatorLockingError
}

/// api: CocoaError.Code.managedObjectReferentialIntegrityError
func api_CocoaError_Code_managedObjectReferentialIntegrityError() {
    let _: CocoaError.Code = CocoaError.Code.managedObjectReferentialIntegrityError
}

/// api: CocoaError.Code.managedObjectExternalRelationshipError
func api_CocoaError_Code_managedObjectExternalRelationshipError() {
    let _: CocoaError.Code = CocoaError.Code.managedObjectExternalRelationshipError
}

/// api: CocoaError.Code.managedObjectMergeError
func api_CocoaError_Code_managedObjectMergeError() {
    let _: CocoaError.Code = CocoaError.Code.managedObjectMergeError
}

/// api: CocoaError.Code.managedObjectConstraintMergeError
func api_CocoaError_Code_managedObjectConstraintMergeError() {
    let _: CocoaError.Code = CocoaError.Code.managedObjectConstraintMergeError
}

/// api: CocoaError.Code.persistentStoreInvalidTypeError
func api_CocoaError_Code_persistentStoreInvalidTypeError() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreInvalidTypeError
}

/// api: CocoaError.Code.persistentStoreTypeMismatchError
func api_CocoaError_Code_persistentStoreTypeMismatchError() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreTypeMismatchError
}

/// api: CocoaError.Code.persistentStoreIncompatibleSchemaError
func api_CocoaError_Code_persistentStoreIncompatibleSchemaError() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreIncompatibleSchemaError
}

/// api: CocoaError.Code.persistentStoreSaveError
func api_CocoaError_Code_persistentStoreSaveError() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreSaveError
}

/// api: CocoaError.Code.persistentStoreIncompleteSaveError
func api_CocoaError_Code_persistentStoreIncompleteSaveError() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreIncompleteSaveError
}

/// api: CocoaError.Code.persistentStoreSaveConflictsError
func api_CocoaError_Code_persistentStoreSaveConflictsError() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreSaveConflictsError
}

/// api: CocoaError.Code.coreDataError
func api_CocoaError_Code_coreDataError() {
    let _: CocoaError.Code = CocoaError.Code.coreDataError
}

/// api: CocoaError.Code.persistentStoreOperationError
func api_CocoaError_Code_persistentStoreOperationError() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreOperationError
}

/// api: CocoaError.Code.persistentStoreOpenError
func api_CocoaError_Code_persistentStoreOpenError() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreOpenError
}

/// api: CocoaError.Code.persistentStoreTimeoutError
func api_CocoaError_Code_persistentStoreTimeoutError() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreTimeoutError
}

/// api: CocoaError.Code.persistentStoreUnsupportedRequestTypeError
func api_CocoaError_Code_persistentStoreUnsupportedRequestTypeError() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreUnsupportedRequestTypeError
}

/// api: CocoaError.Code.persistentStoreIncompatibleVersionHashError
func api_CocoaError_Code_persistentStoreIncompatibleVersionHashError() {
    let _: CocoaError.Code = CocoaError.Code.persistentStoreIncompatibleVersionHashError
}

/// api: CocoaError.Code.migrationError
func api_CocoaError_Code_migrationError() {
    let _: CocoaError.Code = CocoaError.Code.migrationError
}

/// api: CocoaError.Code.migrationCancelledError
func api_CocoaError_Code_migrationCancelledError() {
    let _: CocoaError.Code = CocoaError.Code.migrationCancelledError
}

/// api: CocoaError.Code.migrationMissingSourceModelError
func api_CocoaError_Code_migrationMissingSourceModelError() {
    let _: CocoaError.Code = CocoaError.Code.migrationMissingSourceModelError
}

/// api: CocoaError.Code.migrationMissingMappingModelError
func api_CocoaError_Code_migrationMissingMappingModelError() {
    let _: CocoaError.Code = CocoaError.Code.migrationMissingMappingModelError
}

/// api: CocoaError.Code.migrationManagerSourceStoreError
func api_CocoaError_Code_migrationManagerSourceStoreError() {
    let _: CocoaError.Code = CocoaError.Code.migrationManagerSourceStoreError
}

/// api: CocoaError.Code.migrationManagerDestinationStoreError
func api_CocoaError_Code_migrationManagerDestinationStoreError() {
    let _: CocoaError.Code = CocoaError.Code.migrationManagerDestinationStoreError
}

/// api: CocoaError.Code.entityMigrationPolicyError
func api_CocoaError_Code_entityMigrationPolicyError() {
    let _: CocoaError.Code = CocoaError.Code.entityMigrationPolicyError
}

/// api: CocoaError.Code.sqliteError
func api_CocoaError_Code_sqliteError() {
    let _: CocoaError.Code = CocoaError.Code.sqliteError
}

/// api: CocoaError.Code.inferredMappingModelError
func api_CocoaError_Code_inferredMappingModelError() {
    let _: CocoaError.Code = CocoaError.Code.inferredMappingModelError
}

/// api: CocoaError.Code.externalRecordImportError
func api_CocoaError_Code_externalRecordImportError() {
    let _: CocoaError.Code = CocoaError.Code.externalRecordImportError
}

// MARK: CocoaError statics with the Swift 3 names Apple deprecated (still present)

/// api: CocoaError.managedObjectValidationError
func api_CocoaError_managedObjectValidationError() {
    let _: CocoaError.Code = CocoaError.managedObjectValidationError
}

/// api: CocoaError.validationMultipleErrorsError
func api_CocoaError_validationMultipleErrorsError() {
    let _: CocoaError.Code = CocoaError.validationMultipleErrorsError
}

/// api: CocoaError.validationMissingMandatoryPropertyError
func api_CocoaError_validationMissingMandatoryPropertyError() {
    let _: CocoaError.Code = CocoaError.validationMissingMandatoryPropertyError
}

/// api: CocoaError.validationRelationshipLacksMinimumCountError
func api_CocoaError_validationRelationshipLacksMinimumCountError() {
    let _: CocoaError.Code = CocoaError.validationRelationshipLacksMinimumCountError
}

/// api: CocoaError.validationRelationshipExceedsMaximumCountError
func api_CocoaError_validationRelationshipExceedsMaximumCountError() {
    let _: CocoaError.Code = CocoaError.validationRelationshipExceedsMaximumCountError
}

/// api: CocoaError.validationRelationshipDeniedDeleteError
func api_CocoaError_validationRelationshipDeniedDeleteError() {
    let _: CocoaError.Code = CocoaError.validationRelationshipDeniedDeleteError
}

/// api: CocoaError.validationNumberTooLargeError
func api_CocoaError_validationNumberTooLargeError() {
    let _: CocoaError.Code = CocoaError.validationNumberTooLargeError
}

/// api: CocoaError.validationNumberTooSmallError
func api_CocoaError_validationNumberTooSmallError() {
    let _: CocoaError.Code = CocoaError.validationNumberTooSmallError
}

/// api: CocoaError.validationDateTooLateError
func api_CocoaError_validationDateTooLateError() {
    let _: CocoaError.Code = CocoaError.validationDateTooLateError
}

/// api: CocoaError.validationDateTooSoonError
func api_CocoaError_validationDateTooSoonError() {
    let _: CocoaError.Code = CocoaError.validationDateTooSoonError
}

/// api: CocoaError.validationInvalidDateError
func api_CocoaError_validationInvalidDateError() {
    let _: CocoaError.Code = CocoaError.validationInvalidDateError
}

/// api: CocoaError.validationStringTooLongError
func api_CocoaError_validationStringTooLongError() {
    let _: CocoaError.Code = CocoaError.validationStringTooLongError
}

/// api: CocoaError.validationStringTooShortError
func api_CocoaError_validationStringTooShortError() {
    let _: CocoaError.Code = CocoaError.validationStringTooShortError
}

/// api: CocoaError.validationStringPatternMatchingError
func api_CocoaError_validationStringPatternMatchingError() {
    let _: CocoaError.Code = CocoaError.validationStringPatternMatchingError
}

/// api: CocoaError.managedObjectContextLockingError
func api_CocoaError_managedObjectContextLockingError() {
    let _: CocoaError.Code = CocoaError.managedObjectContextLockingError
}

/// api: CocoaError.persistentStoreCoordinatorLockingError
func api_CocoaError_persistentStoreCoordinatorLockingError() {
    let _: CocoaError.Code = CocoaError.persistentStoreCoordinatorLockingError
}

/// api: CocoaError.managedObjectReferentialIntegrityError
func api_CocoaError_managedObjectReferentialIntegrityError() {
    let _: CocoaError.Code = CocoaError.managedObjectReferentialIntegrityError
}

/// api: CocoaError.managedObjectExternalRelationshipError
func api_CocoaError_managedObjectExternalRelationshipError() {
    let _: CocoaError.Code = CocoaError.managedObjectExternalRelationshipError
}

/// api: CocoaError.managedObjectMergeError
func api_CocoaError_managedObjectMergeError() {
    let _: CocoaError.Code = CocoaError.managedObjectMergeError
}

/// api: CocoaError.managedObjectConstraintMergeError
func api_CocoaError_managedObjectConstraintMergeError() {
    let _: CocoaError.Code = CocoaError.managedObjectConstraintMergeError
}

/// api: CocoaError.persistentStoreInvalidTypeError
func api_CocoaError_persistentStoreInvalidTypeError() {
    let _: CocoaError.Code = CocoaError.persistentStoreInvalidTypeError
}

/// api: CocoaError.persistentStoreTypeMismatchError
func api_CocoaError_persistentStoreTypeMismatchError() {
    let _: CocoaError.Code = CocoaError.persistentStoreTypeMismatchError
}

/// api: CocoaError.persistentStoreIncompatibleSchemaError
func api_CocoaError_persistentStoreIncompatibleSchemaError() {
    let _: CocoaError.Code = CocoaError.persistentStoreIncompatibleSchemaError
}

/// api: CocoaError.persistentStoreSaveError
func api_CocoaError_persistentStoreSaveError() {
    let _: CocoaError.Code = CocoaError.persistentStoreSaveError
}

/// api: CocoaError.persistentStoreIncompleteSaveError
func api_CocoaError_persistentStoreIncompleteSaveError() {
    let _: CocoaError.Code = CocoaError.persistentStoreIncompleteSaveError
}

/// api: CocoaError.persistentStoreSaveConflictsError
func api_CocoaError_persistentStoreSaveConflictsError() {
    let _: CocoaError.Code = CocoaError.persistentStoreSaveConflictsError
}

/// api: CocoaError.coreDataError
func api_CocoaError_coreDataError() {
    let _: CocoaError.Code = CocoaError.coreDataError
}

/// api: CocoaError.persistentStoreOperationError
func api_CocoaError_persistentStoreOperationError() {
    let _: CocoaError.Code = CocoaError.persistentStoreOperationError
}

/// api: CocoaError.persistentStoreOpenError
func api_CocoaError_persistentStoreOpenError() {
    let _: CocoaError.Code = CocoaError.persistentStoreOpenError
}

/// api: CocoaError.persistentStoreTimeoutError
func api_CocoaError_persistentStoreTimeoutError() {
    let _: CocoaError.Code = CocoaError.persistentStoreTimeoutError
}

/// api: CocoaError.persistentStoreUnsupportedRequestTypeError
func api_CocoaError_persistentStoreUnsupportedRequestTypeError() {
    let _: CocoaError.Code = CocoaError.persistentStoreUnsupportedRequestTypeError
}

/// api: CocoaError.persistentStoreIncompatibleVersionHashError
func api_CocoaError_persistentStoreIncompatibleVersionHashError() {
    let _: CocoaError.Code = CocoaError.persistentStoreIncompatibleVersionHashError
}

/// api: CocoaError.migrationError
func api_CocoaError_migrationError() {
    let _: CocoaError.Code = CocoaError.migrationError
}

/// api: CocoaError.migrationCancelledError
func api_CocoaError_migrationCancelledError() {
    let _: CocoaError.Code = CocoaError.migrationCancelledError
}

/// api: CocoaError.migrationMissingSourceModelError
func api_CocoaError_migrationMissingSourceModelError() {
    let _: CocoaError.Code = CocoaError.migrationMissingSourceModelError
}

/// api: CocoaError.migrationMissingMappingModelError
func api_CocoaError_migrationMissingMappingModelError() {
    let _: CocoaError.Code = CocoaError.migrationMissingMappingModelError
}

/// api: CocoaError.migrationManagerSourceStoreError
func api_CocoaError_migrationManagerSourceStoreError() {
    let _: CocoaError.Code = CocoaError.migrationManagerSourceStoreError
}

/// api: CocoaError.migrationManagerDestinationStoreError
func api_CocoaError_migrationManagerDestinationStoreError() {
    let _: CocoaError.Code = CocoaError.migrationManagerDestinationStoreError
}

/// api: CocoaError.entityMigrationPolicyError
func api_CocoaError_entityMigrationPolicyError() {
    let _: CocoaError.Code = CocoaError.entityMigrationPolicyError
}

/// api: CocoaError.sqliteError
func api_CocoaError_sqliteError() {
    let _: CocoaError.Code = CocoaError.sqliteError
}

/// api: CocoaError.inferredMappingModelError
func api_CocoaError_inferredMappingModelError() {
    let _: CocoaError.Code = CocoaError.inferredMappingModelError
}

/// api: CocoaError.externalRecordImportError
func api_CocoaError_externalRecordImportError() {
    let _: CocoaError.Code = CocoaError.externalRecordImportError
}

// MARK: CocoaError instance properties reading Core Data's userInfo keys

/// api: CocoaError.validationObject
func api_CocoaError_validationObject(_ error: CocoaError) {
    let _: Any? = error.validationObject
}

/// api: CocoaError.validationKey
func api_CocoaError_validationKey(_ error: CocoaError) {
    let _: String? = error.validationKey
}

/// api: CocoaError.validationPredicate
func api_CocoaError_validationPredicate(_ error: CocoaError) {
    let _: NSPredicate? = error.validationPredicate
}

/// api: CocoaError.validationValue
func api_CocoaError_validationValue(_ error: CocoaError) {
    let _: Any? = error.validationValue
}

/// api: CocoaError.affectedStores
func api_CocoaError_affectedStores(_ error: CocoaError) {
    let _: [AnyObject]? = error.affectedStores
}

/// api: CocoaError.affectedObjects
func api_CocoaError_affectedObjects(_ error: CocoaError) {
    let _: [AnyObject]? = error.affectedObjects
}

/// api: CocoaError.persistentStoreSaveConflicts (instance property)
func api_CocoaError_persistentStoreSaveConflicts_instanceProperty(_ error: CocoaError) {
    let _: [NSMergeConflict]? = error.persistentStoreSaveConflicts
}

import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsmanagedobject (Swift declarations, iOS 18 /
// macOS 15 SDK), cross-checked against a second copy of Apple's reference pages and the
// NSManagedObject.h header. NSObject key-value coding members that Swift code calls on managed
// objects are checked against developer.apple.com/documentation/objectivec/nsobject-swift.class.

// not-on-linux: NSManagedObject.@NSManaged: Linux has no Objective-C runtime to synthesize accessors; use @Managed
// not-on-linux: NSManagedObject.validateValue(_:forKey:): takes AutoreleasingUnsafeMutablePointer<AnyObject?>, which exists only with the Objective-C runtime
// not-on-linux: NSManagedObject.observationInfo(): Objective-C key-value observing storage (a raw pointer the KVO runtime owns); Linux Foundation has no KVO runtime
// not-on-linux: NSManagedObject.setObservationInfo(_:): Objective-C key-value observing storage (a raw pointer the KVO runtime owns); Linux Foundation has no KVO runtime
// not-on-linux: NSManagedObject.objectWillChange: ObservableObject conformance comes from Combine (ObservableObjectPublisher), which does not exist on Linux
// not-on-linux: NSManagedObject.ObjectWillChangePublisher: the ObservableObject typealias for Combine's ObservableObjectPublisher (iOS 18 CoreData.swiftinterface); Combine does not exist on Linux

// MARK: - Creating a managed object

/// api: NSManagedObject.init(entity:insertInto:)
func api_NSManagedObject_init_entity_insertInto(_ entity: NSEntityDescription, _ context: NSManagedObjectContext?) {
    final class Sub: NSManagedObject {
        override init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
            super.init(entity: entity, insertInto: context)
        }
    }
    let _: NSManagedObject = NSManagedObject(entity: entity, insertInto: context)
    let _: NSManagedObject = NSManagedObject(entity: entity, insertInto: nil)
    let _: Sub = Sub(entity: entity, insertInto: context)
}

/// api: NSManagedObject.init(context:)
func api_NSManagedObject_init_context(_ context: NSManagedObjectContext) {
    final class Item: NSManagedObject {}
    let _: Item = Item(context: context)
}

// MARK: - Identity

/// api: NSManagedObject.entity
func api_NSManagedObject_entity_property(_ object: NSManagedObject) {
    let _: NSEntityDescription = object.entity
}

/// api: NSManagedObject.objectID
func api_NSManagedObject_objectID(_ object: NSManagedObject) {
    let _: NSManagedObjectID = object.objectID
}

/// api: NSManagedObject.entity()
func api_NSManagedObject_entity_classMethod(_ type: NSManagedObject.Type) {
    let _: NSEntityDescription = type.entity()
    let _: NSEntityDescription = NSManagedObject.entity()
}

/// api: NSManagedObject.fetchRequest()
func api_NSManagedObject_fetchRequest(_ type: NSManagedObject.Type) {
    let _: NSFetchRequest<any NSFetchRequestResult> = type.fetchRequest()
    let _: NSFetchRequest<NSFetchRequestResult> = NSManagedObject.fetchRequest()
}

/// api: NSManagedObject.Identifiable
func api_NSManagedObject_Identifiable(_ object: NSManagedObject) {
    func requireIdentifiable<T: Identifiable>(_ value: T) -> T.ID { value.id }
    let _: ObjectIdentifier = requireIdentifiable(object)
    let _: ObjectIdentifier = object.id
}

// MARK: - State information

/// api: NSManagedObject.managedObjectContext
func api_NSManagedObject_managedObjectContext(_ object: NSManagedObject) {
    let _: NSManagedObjectContext? = object.managedObjectContext
}

/// api: NSManagedObject.hasChanges
func api_NSManagedObject_hasChanges(_ object: NSManagedObject) {
    let _: Bool = object.hasChanges
}

/// api: NSManagedObject.isInserted
func api_NSManagedObject_isInserted(_ object: NSManagedObject) {
    let _: Bool = object.isInserted
}

/// api: NSManagedObject.isUpdated
func api_NSManagedObject_isUpdated(_ object: NSManagedObject) {
    let _: Bool = object.isUpdated
}

/// api: NSManagedObject.isDeleted
func api_NSManagedObject_isDeleted(_ object: NSManagedObject) {
    let _: Bool = object.isDeleted
}

/// api: NSManagedObject.isFault
func api_NSManagedObject_isFault(_ object: NSManagedObject) {
    let _: Bool = object.isFault
}

/// api: NSManagedObject.faultingState
func api_NSManagedObject_faultingState(_ object: NSManagedObject) {
    let _: Int = object.faultingState
}

/// api: NSManagedObject.hasFault(forRelationshipNamed:)
func api_NSManagedObject_hasFault_forRelationshipNamed(_ object: NSManagedObject) {
    let _: Bool = object.hasFault(forRelationshipNamed: "items")
}

/// api: NSManagedObject.hasPersistentChangedValues
func api_NSManagedObject_hasPersistentChangedValues(_ object: NSManagedObject) {
    let _: Bool = object.hasPersistentChangedValues
}

// MARK: - Managing change events

/// api: NSManagedObject.contextShouldIgnoreUnmodeledPropertyChanges
final class API_NSManagedObject_ContextShouldIgnoreUnmodeledPropertyChanges: NSManagedObject {
    override class var contextShouldIgnoreUnmodeledPropertyChanges: Bool {
        let inherited: Bool = NSManagedObject.contextShouldIgnoreUnmodeledPropertyChanges
        return inherited && super.contextShouldIgnoreUnmodeledPropertyChanges
    }
}

/// api: NSManagedObject.awakeFromFetch()
final class API_NSManagedObject_AwakeFromFetch: NSManagedObject {
    override func awakeFromFetch() {
        super.awakeFromFetch()
    }
}

/// api: NSManagedObject.awakeFromInsert()
final class API_NSManagedObject_AwakeFromInsert: NSManagedObject {
    override func awakeFromInsert() {
        super.awakeFromInsert()
    }
}

/// api: NSManagedObject.awake(fromSnapshotEvents:)
final class API_NSManagedObject_AwakeFromSnapshotEvents: NSManagedObject {
    override func awake(fromSnapshotEvents flags: NSSnapshotEventType) {
        super.awake(fromSnapshotEvents: flags)
    }
}

/// api: NSManagedObject.changedValues()
func api_NSManagedObject_changedValues(_ object: NSManagedObject) {
    let _: [String: Any] = object.changedValues()
}

/// api: NSManagedObject.changedValuesForCurrentEvent()
func api_NSManagedObject_changedValuesForCurrentEvent(_ object: NSManagedObject) {
    let _: [String: Any] = object.changedValuesForCurrentEvent()
}

/// api: NSManagedObject.committedValues(forKeys:)
func api_NSManagedObject_committedValues_forKeys(_ object: NSManagedObject) {
    let _: [String: Any] = object.committedValues(forKeys: ["name"])
    let _: [String: Any] = object.committedValues(forKeys: nil)
}

/// api: NSManagedObject.prepareForDeletion()
final class API_NSManagedObject_PrepareForDeletion: NSManagedObject {
    override func prepareForDeletion() {
        super.prepareForDeletion()
    }
}

/// api: NSManagedObject.willSave()
final class API_NSManagedObject_WillSave: NSManagedObject {
    override func willSave() {
        super.willSave()
    }
}

/// api: NSManagedObject.didSave()
final class API_NSManagedObject_DidSave: NSManagedObject {
    override func didSave() {
        super.didSave()
    }
}

/// api: NSManagedObject.willTurnIntoFault()
final class API_NSManagedObject_WillTurnIntoFault: NSManagedObject {
    override func willTurnIntoFault() {
        super.willTurnIntoFault()
    }
}

/// api: NSManagedObject.didTurnIntoFault()
final class API_NSManagedObject_DidTurnIntoFault: NSManagedObject {
    override func didTurnIntoFault() {
        super.didTurnIntoFault()
    }
}

// MARK: - Key-value coding

/// api: NSManagedObject.value(forKey:)
func api_NSManagedObject_value_forKey(_ object: NSManagedObject) {
    let _: Any? = object.value(forKey: "name")
}

/// api: NSManagedObject.setValue(_:forKey:)
func api_NSManagedObject_setValue_forKey(_ object: NSManagedObject) {
    object.setValue("Ada", forKey: "name")
    object.setValue(nil, forKey: "name")
}

/// api: NSManagedObject.primitiveValue(forKey:)
func api_NSManagedObject_primitiveValue_forKey(_ object: NSManagedObject) {
    let _: Any? = object.primitiveValue(forKey: "name")
}

/// api: NSManagedObject.setPrimitiveValue(_:forKey:)
func api_NSManagedObject_setPrimitiveValue_forKey(_ object: NSManagedObject) {
    object.setPrimitiveValue("Ada", forKey: "name")
    object.setPrimitiveValue(nil, forKey: "name")
}

/// api: NSManagedObject.objectIDs(forRelationshipNamed:)
func api_NSManagedObject_objectIDs_forRelationshipNamed(_ object: NSManagedObject) {
    let _: [NSManagedObjectID] = object.objectIDs(forRelationshipNamed: "items")
}

/// api: NSManagedObject.subscript(_:)
func api_NSManagedObject_subscript(_ object: NSManagedObject) {
    let value: Any? = object["name"]
    object["name"] = value
    object["name"] = nil
}

/// api: NSManagedObject.value(forKeyPath:)
func api_NSManagedObject_value_forKeyPath(_ object: NSManagedObject) {
    let _: Any? = object.value(forKeyPath: "owner.name")
}

/// api: NSManagedObject.setValue(_:forKeyPath:)
func api_NSManagedObject_setValue_forKeyPath(_ object: NSManagedObject) {
    object.setValue("Ada", forKeyPath: "owner.name")
    object.setValue(nil, forKeyPath: "owner.name")
}

/// api: NSManagedObject.dictionaryWithValues(forKeys:)
func api_NSManagedObject_dictionaryWithValues_forKeys(_ object: NSManagedObject) {
    let _: [String: Any] = object.dictionaryWithValues(forKeys: ["name", "age"])
}

/// api: NSManagedObject.setValuesForKeys(_:)
func api_NSManagedObject_setValuesForKeys(_ object: NSManagedObject) {
    let values: [String: Any] = ["name": "Ada", "age": 36]
    object.setValuesForKeys(values)
}

/// api: NSManagedObject.mutableSetValue(forKey:)
func api_NSManagedObject_mutableSetValue_forKey(_ object: NSManagedObject) {
    let _: NSMutableSet = object.mutableSetValue(forKey: "items")
}

/// api: NSManagedObject.mutableOrderedSetValue(forKey:)
func api_NSManagedObject_mutableOrderedSetValue_forKey(_ object: NSManagedObject) {
    let _: NSMutableOrderedSet = object.mutableOrderedSetValue(forKey: "orderedItems")
}

// MARK: - Validation

/// api: NSManagedObject.validateForDelete()
func api_NSManagedObject_validateForDelete(_ object: NSManagedObject) throws {
    final class Sub: NSManagedObject {
        override func validateForDelete() throws {
            try super.validateForDelete()
        }
    }
    try object.validateForDelete()
}

/// api: NSManagedObject.validateForInsert()
func api_NSManagedObject_validateForInsert(_ object: NSManagedObject) throws {
    final class Sub: NSManagedObject {
        override func validateForInsert() throws {
            try super.validateForInsert()
        }
    }
    try object.validateForInsert()
}

/// api: NSManagedObject.validateForUpdate()
func api_NSManagedObject_validateForUpdate(_ object: NSManagedObject) throws {
    final class Sub: NSManagedObject {
        override func validateForUpdate() throws {
            try super.validateForUpdate()
        }
    }
    try object.validateForUpdate()
}

// MARK: - Key-value observing

/// api: NSManagedObject.willAccessValue(forKey:)
func api_NSManagedObject_willAccessValue_forKey(_ object: NSManagedObject) {
    object.willAccessValue(forKey: "name")
    object.willAccessValue(forKey: nil)
}

/// api: NSManagedObject.didAccessValue(forKey:)
func api_NSManagedObject_didAccessValue_forKey(_ object: NSManagedObject) {
    object.didAccessValue(forKey: "name")
    object.didAccessValue(forKey: nil)
}

/// api: NSManagedObject.willChangeValue(forKey:)
func api_NSManagedObject_willChangeValue_forKey(_ object: NSManagedObject) {
    object.willChangeValue(forKey: "name")
}

/// api: NSManagedObject.didChangeValue(forKey:)
func api_NSManagedObject_didChangeValue_forKey(_ object: NSManagedObject) {
    object.didChangeValue(forKey: "name")
}

/// api: NSManagedObject.willChangeValue(forKey:withSetMutation:using:)
func api_NSManagedObject_willChangeValue_forKey_withSetMutation_using(_ object: NSManagedObject, _ other: NSManagedObject) {
    let objects: Set<AnyHashable> = [AnyHashable(other)]
    object.willChangeValue(forKey: "items", withSetMutation: .union, using: objects)
}

/// api: NSManagedObject.didChangeValue(forKey:withSetMutation:using:)
func api_NSManagedObject_didChangeValue_forKey_withSetMutation_using(_ object: NSManagedObject, _ other: NSManagedObject) {
    let objects: Set<AnyHashable> = [AnyHashable(other)]
    object.didChangeValue(forKey: "items", withSetMutation: .union, using: objects)
}

// MARK: - NSSnapshotEventType

/// api: NSSnapshotEventType.init(rawValue:)
func api_NSSnapshotEventType_init_rawValue() {
    let flags: NSSnapshotEventType = NSSnapshotEventType(rawValue: 1 << 5)
    let _: UInt = flags.rawValue
}

/// api: NSSnapshotEventType.undoInsertion
func api_NSSnapshotEventType_undoInsertion() {
    let _: NSSnapshotEventType = .undoInsertion
}

/// api: NSSnapshotEventType.undoDeletion
func api_NSSnapshotEventType_undoDeletion() {
    let _: NSSnapshotEventType = .undoDeletion
}

/// api: NSSnapshotEventType.undoUpdate
func api_NSSnapshotEventType_undoUpdate() {
    let _: NSSnapshotEventType = .undoUpdate
}

/// api: NSSnapshotEventType.rollback
func api_NSSnapshotEventType_rollback() {
    let _: NSSnapshotEventType = .rollback
}

/// api: NSSnapshotEventType.refresh
func api_NSSnapshotEventType_refresh() {
    let _: NSSnapshotEventType = .refresh
}

/// api: NSSnapshotEventType.mergePolicy
func api_NSSnapshotEventType_mergePolicy() {
    let _: NSSnapshotEventType = .mergePolicy
}

/// api: NSSnapshotEventType.OptionSet
func api_NSSnapshotEventType_OptionSet(_ flags: NSSnapshotEventType) {
    func requireOptionSet<T: OptionSet & Sendable>(_ value: T) -> T { value }
    let combined: NSSnapshotEventType = requireOptionSet(flags)
    let _: Bool = combined.contains(flags)
    let _: NSSnapshotEventType = []
}

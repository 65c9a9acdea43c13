import Foundation

/// How a save resolves conflicts between this context's changes and the store's.
///
/// The policies are Apple's: `.error` (default) fails the save with `NSManagedObjectMergeError`;
/// the others resolve conflicts property by property or object by object.
open class NSMergePolicy: NSObject, @unchecked Sendable {
    /// The name this project used before it spelled the type as Apple does.
    public typealias MergePolicyType = NSMergePolicyType

    public let mergeType: NSMergePolicyType

    public init(merge ty: NSMergePolicyType) {
        mergeType = ty
        super.init()
    }

    /// Resolves optimistic-locking conflicts found at save. Override to decide yourself, and
    /// call `super` to apply this policy's rule to what remains:
    ///
    /// ```swift
    /// final class LoggingPolicy: NSMergePolicy {
    ///     init() { super.init(merge: .mergeByPropertyObjectTrumpMergePolicyType) }
    ///     override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
    ///         print("resolving \(list.count) conflicts")
    ///         try super.resolve(optimisticLockingConflicts: list)
    ///     }
    /// }
    /// ```
    ///
    /// - `.error`: throws `NSManagedObjectMergeError` (133020) with `userInfo["conflictList"]`.
    /// - `.mergeByPropertyStoreTrump`: per property, the store's change wins; unconflicting
    ///   changes of this context are kept.
    /// - `.mergeByPropertyObjectTrump`: per property, this context's change wins; the store's
    ///   changes to other properties are kept.
    /// - `.overwrite`: this context's whole state is written over the store's.
    /// - `.rollback`: this context's changes to conflicting objects are discarded for the store's.
    open func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
        guard mergeType != .errorMergePolicyType else {
            let names = list.map { "\($0.sourceObject.entity.name ?? "?") \($0.sourceObject.objectID.uriRepresentation().absoluteString)" }
            throw CoreDataError.make(NSManagedObjectMergeError,
                "Could not merge changes: \(list.count) object(s) changed in the store since this context read them (\(names.joined(separator: ", "))). Refresh them, or set the context's mergePolicy.",
                ["conflictList": list])
        }
        for conflict in list { apply(conflict) }
    }

    /// Resolves uniqueness-constraint conflicts found at save (see ``NSConstraintConflict``).
    /// Override to decide yourself — for example to keep the store's value of one property —
    /// and call `super` for the rest:
    ///
    /// ```swift
    /// final class KeepNotesPolicy: NSMergePolicy {
    ///     init() { super.init(merge: .mergeByPropertyObjectTrumpMergePolicyType) }
    ///     override func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
    ///         for conflict in list {
    ///             guard let notes = conflict.databaseObject?.value(forKey: "notes") else { continue }
    ///             for object in conflict.conflictingObjects { object.setValue(notes, forKey: "notes") }
    ///         }
    ///         try super.resolve(constraintConflicts: list)
    ///     }
    /// }
    /// ```
    ///
    /// The objects sharing the constrained values are merged into one, which is saved; the
    /// others are deleted (new ones simply leave the context). The one kept is the record
    /// already in the store (`databaseObject`), else a conflicting object that was saved
    /// before, else the first conflicting object created. The others' values go into it:
    /// - `.error`: throws `NSManagedObjectConstraintMergeError` (133021) with
    ///   `userInfo["conflictList"]`; nothing changes.
    /// - `.mergeByPropertyObjectTrump`: a new duplicate's values replace the kept object's,
    ///   nil included; a saved duplicate's replace them where it changed them.
    /// - `.overwrite`: every value of the duplicate replaces the kept object's, nil included.
    /// - `.mergeByPropertyStoreTrump`: the kept object's values stay; a duplicate's value is
    ///   taken only where the kept object has none.
    /// - `.rollback`: the kept object stays as it is; the duplicates' values are discarded.
    ///
    /// To-one relationships follow the rule above. To-many members are never dropped: except
    /// with `.rollback` the duplicates' members move to the kept object (which keeps its own);
    /// what remains is cut before a duplicate is deleted, so its delete rules touch nothing.
    open func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
        guard mergeType != .errorMergePolicyType else {
            throw NSManagedObjectContext.constraintError(list, "the context's merge policy is NSErrorMergePolicy")
        }
        for conflict in list { apply(conflict) }
    }

    /// Apple's combined entry point: optimistic-locking conflicts (`NSMergeConflict`) and
    /// constraint conflicts (`NSConstraintConflict`), each to its own method.
    open func resolve(mergeConflicts list: [Any]) throws {
        let constraintConflicts = list.compactMap { $0 as? NSConstraintConflict }
        if !constraintConflicts.isEmpty { try resolve(constraintConflicts: constraintConflicts) }
        let lockingConflicts = list.compactMap { $0 as? NSMergeConflict }
        if !lockingConflicts.isEmpty || constraintConflicts.isEmpty { try resolve(optimisticLockingConflicts: lockingConflicts) }
    }

    private func apply(_ conflict: NSMergeConflict) {
        let object = conflict.sourceObject
        guard let row = conflict.persistedRow else {
            // The record is gone from the store: nothing left to update. The object is treated as
            // deleted, so the save goes on without it (docs/DEVIATIONS.md).
            object.managedObjectContext?.adoptStoreDeletion(of: object)
            return
        }
        let cached = object.committed ?? row.values
        for i in object.layout.persistentIndexes where i < row.values.count {
            let stored = row.values[i]
            let storeChanged = !stored.isSame(as: cached[i])
            let objectChanged = !object.slots[i].storedValue.isSame(as: cached[i])
            switch mergeType {
            case .mergeByPropertyStoreTrumpMergePolicyType:
                if storeChanged { object.slots[i] = .value(stored) }
            case .mergeByPropertyObjectTrumpMergePolicyType:
                if !objectChanged { object.slots[i] = .value(stored) }
            case .rollbackMergePolicyType:
                object.slots[i] = .value(stored)
            case .overwriteMergePolicyType, .errorMergePolicyType:
                break
            }
        }
        object.committed = row.values
        object.version = row.version
    }

    public static let error = NSMergePolicy(merge: .errorMergePolicyType)
    public static let mergeByPropertyStoreTrump = NSMergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
    public static let mergeByPropertyObjectTrump = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
    public static let overwrite = NSMergePolicy(merge: .overwriteMergePolicyType)
    public static let rollback = NSMergePolicy(merge: .rollbackMergePolicyType)
}

/// The kinds of merge policy (``NSMergePolicy/mergeType``), with Apple's values.
public enum NSMergePolicyType: UInt, Sendable {
    case errorMergePolicyType = 0
    case mergeByPropertyStoreTrumpMergePolicyType = 1
    case mergeByPropertyObjectTrumpMergePolicyType = 2
    case overwriteMergePolicyType = 3
    case rollbackMergePolicyType = 4
}

// Apple's global names for the shared policies, typed as Apple types them (`AnyObject`: each is
// an `NSMergePolicy`, and a context's `mergePolicy` takes one).
nonisolated(unsafe) public let NSErrorMergePolicy: AnyObject = NSMergePolicy.error
nonisolated(unsafe) public let NSMergeByPropertyStoreTrumpMergePolicy: AnyObject = NSMergePolicy.mergeByPropertyStoreTrump
nonisolated(unsafe) public let NSMergeByPropertyObjectTrumpMergePolicy: AnyObject = NSMergePolicy.mergeByPropertyObjectTrump
nonisolated(unsafe) public let NSOverwriteMergePolicy: AnyObject = NSMergePolicy.overwrite
nonisolated(unsafe) public let NSRollbackMergePolicy: AnyObject = NSMergePolicy.rollback

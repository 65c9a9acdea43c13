import Foundation

/// How a save resolves conflicts between this context's changes and the store's.
///
/// The policies are Apple's: `.error` (default) fails the save with `NSManagedObjectMergeError`;
/// the others resolve conflicts property by property or object by object.
open class NSMergePolicy: NSObject, @unchecked Sendable {
    public enum MergePolicyType: UInt, Sendable {
        case errorMergePolicyType = 0
        case mergeByPropertyStoreTrumpMergePolicyType = 1
        case mergeByPropertyObjectTrumpMergePolicyType = 2
        case overwriteMergePolicyType = 3
        case rollbackMergePolicyType = 4
    }

    public let mergeType: MergePolicyType

    public init(merge ty: MergePolicyType) {
        mergeType = ty
        super.init()
    }

    public static let error = NSMergePolicy(merge: .errorMergePolicyType)
    public static let mergeByPropertyStoreTrump = NSMergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
    public static let mergeByPropertyObjectTrump = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
    public static let overwrite = NSMergePolicy(merge: .overwriteMergePolicyType)
    public static let rollback = NSMergePolicy(merge: .rollbackMergePolicyType)
}

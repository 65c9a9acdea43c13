import Foundation

/// How a to-many relationship's set changes, in `willChangeValue(forKey:withSetMutation:using:)`
/// and its `did` twin (Foundation's type, with its values; Linux Foundation lacks it).
///
/// ```swift
/// willChangeValue(forKey: "employees", withSetMutation: .union, using: [employee])
/// ```
public enum NSKeyValueSetMutationKind: UInt, Sendable {
    case union = 1
    case minus = 2
    case intersect = 3
    case set = 4
}

import Foundation

/// One section of a fetched results controller: the objects that share a value of its
/// `sectionNameKeyPath`.
///
/// ```swift
/// for section in controller.sections ?? [] {
///     print(section.name, section.numberOfObjects)
/// }
/// ```
public protocol NSFetchedResultsSectionInfo {
    /// The section's value of the controller's `sectionNameKeyPath`, as text ("" for nil).
    var name: String { get }
    /// The section's entry in the section index (see `sectionIndexTitle(forSectionName:)`).
    var indexTitle: String? { get }
    /// How many objects the section has.
    var numberOfObjects: Int { get }
    /// The section's objects, in the controller's order.
    var objects: [Any]? { get }
}

/// A section of ``FetchedResults``: its objects in order. The controller changes it in place
/// as it tracks changes; a deleted section is reported with its objects already gone.
final class FetchedResultsSection: NSFetchedResultsSectionInfo {
    let name: String
    var indexTitle: String?
    /// The section's objects in the order of the controller's sort descriptors (managed-object
    /// results); `others` holds the results of other result types, which are not tracked.
    var members: [NSManagedObject]
    var others: [Any]

    init(name: String, indexTitle: String?, members: [NSManagedObject] = [], others: [Any] = []) {
        self.name = name
        self.indexTitle = indexTitle
        self.members = members
        self.others = others
    }

    var numberOfObjects: Int { others.isEmpty ? members.count : others.count }
    var objects: [Any]? { others.isEmpty ? members : others }
}

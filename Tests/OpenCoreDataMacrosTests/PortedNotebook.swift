//
//  Notebook+CoreData.swift
//  A sample written for OpenCoreData's tests in the shape Xcode generates
//  ("Category/Extension" code generation) and apps write around it.
//

import OpenCoreDataMacros

public class PortedNotebook: NSManagedObject {
}

extension PortedNotebook {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<PortedNotebook> {
        return NSFetchRequest<PortedNotebook>(entityName: "PortedNotebook")
    }

    @ManagedProperty public var title: String?
    @ManagedProperty public var pageCount: Int64
    @ManagedProperty public var rating: NSNumber?
    @ManagedProperty public var created: Date!
    @ManagedProperty public var pages: NSOrderedSet?
    @ManagedProperty public var labels: NSSet?

}

// MARK: Generated accessors for pages
extension PortedNotebook {

    @ManagedAccessor public func insertIntoPages(_ value: PortedPage, at idx: Int)

    @ManagedAccessor public func removeFromPages(at idx: Int)

    @ManagedAccessor public func addToPages(_ value: PortedPage)

}

// MARK: Generated accessors for labels
extension PortedNotebook {

    @ManagedAccessor public func addToLabels(_ value: PortedLabel)

    @ManagedAccessor public func removeFromLabels(_ values: NSSet)

}

public class PortedPage: NSManagedObject {
    @ManagedProperty public var number: Int16
    @ManagedProperty public var notebook: PortedNotebook?
}

public class PortedLabel: NSManagedObject {
    @ManagedProperty public var name: String?
    @ManagedProperty public var notebook: PortedNotebook?
}

extension PortedNotebook {
    /// Pages after `number`, in order: a request an app writes with #keyPath.
    static func pages(after number: Int16, in notebook: PortedNotebook) -> NSFetchRequest<PortedPage> {
        let request = NSFetchRequest<PortedPage>(entityName: "PortedPage")
        request.predicate = NSPredicate(format: "%K == %@ AND %K > %d", "notebook", notebook, "number", number)
        request.sortDescriptors = [NSSortDescriptor(key: "number", ascending: true)]
        return request
    }
}

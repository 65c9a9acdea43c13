import OpenCoreData
import XCTest

// The seeds' Employee/Department model, built in code, with typed subclasses. Shared by the
// behaviour tests; each test builds a fresh stack.

public final class Employee: NSManagedObject {
    @Managed public var firstName: String?
    @Managed public var lastName: String?
    @Managed public var salary: Int64
    @Managed public var email: String?
    @Managed public var startDate: Date?
    @Managed public var isSelected: Bool          // transient
    @Managed public var department: Department?
    @Managed public var manager: Employee?
    @Managed public var directReports: Set<Employee>
    @Managed public var projects: Set<Project>
    @Managed public var badge: Badge?

    public override func awakeFromInsert() {
        super.awakeFromInsert()
        startDate = Date(timeIntervalSinceReferenceDate: 0)
    }
}

public final class Department: NSManagedObject {
    @Managed public var name: String?
    @Managed public var budget: Double
    @Managed public var employees: Set<Employee>
}

public final class Project: NSManagedObject {
    @Managed public var title: String?
    @Managed public var members: Set<Employee>
    @Managed public var milestones: [Milestone]
}

public final class Milestone: NSManagedObject {
    @Managed public var title: String?
    @Managed public var project: Project?
}

public final class Badge: NSManagedObject {
    @Managed public var code: String?
    @Managed public var owner: Employee?
}

public enum CompanyModel {
    /// A new model: Department ⇄ Employee (one-to-many), Employee manager ⇄ directReports
    /// (reflexive), Employee ⇄ Project (many-to-many), Project ⇄ Milestone (ordered), Employee ⇄
    /// Badge (one-to-one), Manager inherits from Employee.
    public static func make(departmentEmployeesRule: NSDeleteRule = .nullifyDeleteRule) -> NSManagedObjectModel {
        func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = true, transient: Bool = false, defaultValue: Any? = nil) -> NSAttributeDescription {
            let a = NSAttributeDescription(name: name, type: type, isOptional: optional, defaultValue: defaultValue)
            a.isTransient = transient
            return a
        }
        func relationship(_ name: String, toMany: Bool, rule: NSDeleteRule = .nullifyDeleteRule, ordered: Bool = false) -> NSRelationshipDescription {
            let r = NSRelationshipDescription()
            r.name = name
            r.maxCount = toMany ? 0 : 1
            r.deleteRule = rule
            r.isOrdered = ordered
            return r
        }
        let employee = NSEntityDescription(name: "Employee", className: "OpenCoreDataTestSupport.Employee")
        let manager = NSEntityDescription(name: "Manager", className: "OpenCoreDataTestSupport.Employee")
        let department = NSEntityDescription(name: "Department", className: "OpenCoreDataTestSupport.Department")
        let project = NSEntityDescription(name: "Project", className: "OpenCoreDataTestSupport.Project")
        let milestone = NSEntityDescription(name: "Milestone", className: "OpenCoreDataTestSupport.Milestone")
        let badge = NSEntityDescription(name: "Badge", className: "OpenCoreDataTestSupport.Badge")

        let salary = attribute("salary", .integer64AttributeType, optional: false, defaultValue: 0)
        salary.setValidationPredicates([NSPredicate(format: "SELF >= 0"), NSPredicate(format: "SELF <= 1000000")],
                                       withValidationWarnings: ["salary can't be negative", "salary is too large"])
        let firstName = attribute("firstName", .stringAttributeType, optional: false)
        firstName.setValidationPredicates([NSPredicate(format: "length >= 1"), NSPredicate(format: "length <= 20")],
                                          withValidationWarnings: ["first name is empty", "first name is too long"])
        let email = attribute("email", .stringAttributeType)
        email.setValidationPredicates([NSPredicate(format: "SELF MATCHES %@", "[^@ ]+@[^@ ]+")], withValidationWarnings: ["not an email address"])

        let employeeDepartment = relationship("department", toMany: false)
        let departmentEmployees = relationship("employees", toMany: true, rule: departmentEmployeesRule)
        let employeeManager = relationship("manager", toMany: false)
        let directReports = relationship("directReports", toMany: true)
        let employeeProjects = relationship("projects", toMany: true)
        let projectMembers = relationship("members", toMany: true)
        let projectMilestones = relationship("milestones", toMany: true, rule: .cascadeDeleteRule, ordered: true)
        let milestoneProject = relationship("project", toMany: false)
        let employeeBadge = relationship("badge", toMany: false, rule: .cascadeDeleteRule)
        let badgeOwner = relationship("owner", toMany: false)

        employeeDepartment.destinationEntity = department; employeeDepartment.inverseRelationship = departmentEmployees
        departmentEmployees.destinationEntity = employee; departmentEmployees.inverseRelationship = employeeDepartment
        employeeManager.destinationEntity = employee; employeeManager.inverseRelationship = directReports
        directReports.destinationEntity = employee; directReports.inverseRelationship = employeeManager
        employeeProjects.destinationEntity = project; employeeProjects.inverseRelationship = projectMembers
        projectMembers.destinationEntity = employee; projectMembers.inverseRelationship = employeeProjects
        projectMilestones.destinationEntity = milestone; projectMilestones.inverseRelationship = milestoneProject
        milestoneProject.destinationEntity = project; milestoneProject.inverseRelationship = projectMilestones
        employeeBadge.destinationEntity = badge; employeeBadge.inverseRelationship = badgeOwner
        badgeOwner.destinationEntity = employee; badgeOwner.inverseRelationship = employeeBadge

        employee.properties = [firstName, attribute("lastName", .stringAttributeType), salary, email,
                               attribute("startDate", .dateAttributeType),
                               attribute("isSelected", .booleanAttributeType, transient: true, defaultValue: false),
                               employeeDepartment, employeeManager, directReports, employeeProjects, employeeBadge]
        manager.properties = [attribute("bonus", .integer32AttributeType, defaultValue: 0)]
        employee.subentities = [manager]
        department.properties = [attribute("name", .stringAttributeType, optional: false),
                                 attribute("budget", .doubleAttributeType, defaultValue: 0.0), departmentEmployees]
        project.properties = [attribute("title", .stringAttributeType), projectMembers, projectMilestones]
        milestone.properties = [attribute("title", .stringAttributeType), milestoneProject]
        badge.properties = [attribute("code", .stringAttributeType), badgeOwner]

        let model = NSManagedObjectModel()
        model.entities = [employee, manager, department, project, milestone, badge]
        return model
    }
}

/// A fresh in-memory stack.
public struct TestStack: Sendable {
    public let model: NSManagedObjectModel
    public let coordinator: NSPersistentStoreCoordinator
    public let context: NSManagedObjectContext

    public init(model: NSManagedObjectModel = CompanyModel.make(), undo: Bool = false) {
        self.model = model
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try! coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        if undo { context.undoManager = UndoManager() }
    }

    /// A stack on an existing coordinator and context (several stores, custom types).
    public init(model: NSManagedObjectModel, coordinator: NSPersistentStoreCoordinator, context: NSManagedObjectContext) {
        self.model = model
        self.coordinator = coordinator
        self.context = context
    }

    public func newContext() -> NSManagedObjectContext {
        let c = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        c.persistentStoreCoordinator = coordinator
        return c
    }

    public func employee(_ first: String, salary: Int64 = 1000, in context: NSManagedObjectContext? = nil) -> Employee {
        let e = Employee(context: context ?? self.context)
        e.firstName = first
        e.salary = salary
        return e
    }

    public func department(_ name: String, in context: NSManagedObjectContext? = nil) -> Department {
        let d = Department(context: context ?? self.context)
        d.name = name
        return d
    }
}

/// The validation error codes inside an error (its own, or its NSDetailedErrorsKey list).
public func validationCodes(_ error: Error) -> [Int] {
    let e = error as NSError
    if e.code == NSValidationMultipleErrorsError, let details = e.userInfo[NSDetailedErrorsKey] as? [NSError] {
        return details.map(\.code).sorted()
    }
    return [e.code]
}

import OpenCoreData

// The seeds' Employee/Department model, written in code the way an app would.

final class Employee: NSManagedObject {
    @Managed var name: String?
    @Managed var salary: Int64
    @Managed var department: Department?
}

final class Department: NSManagedObject {
    @Managed var name: String?
    @Managed var employees: Set<Employee>
}

enum DemoModel {
    static func make() -> NSManagedObjectModel {
        let employee = NSEntityDescription(name: "Employee", className: "ocd.Employee")
        let department = NSEntityDescription(name: "Department", className: "ocd.Department")

        let employeeName = NSAttributeDescription(name: "name", type: .stringAttributeType, isOptional: false)
        let salary = NSAttributeDescription(name: "salary", type: .integer64AttributeType, isOptional: false, defaultValue: 0)
        salary.setValidationPredicates([NSPredicate(format: "SELF >= 0")], withValidationWarnings: ["A salary can't be negative."])

        let worksIn = NSRelationshipDescription()
        worksIn.name = "department"
        worksIn.maxCount = 1
        worksIn.deleteRule = .nullifyDeleteRule
        let staff = NSRelationshipDescription()
        staff.name = "employees"
        staff.maxCount = 0               // to-many
        staff.deleteRule = .cascadeDeleteRule
        worksIn.destinationEntity = department; worksIn.inverseRelationship = staff
        staff.destinationEntity = employee; staff.inverseRelationship = worksIn

        employee.properties = [employeeName, salary, worksIn]
        department.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType, isOptional: false), staff]

        let model = NSManagedObjectModel()
        model.entities = [employee, department]
        return model
    }
}

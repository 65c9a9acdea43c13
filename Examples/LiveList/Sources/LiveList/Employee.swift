import OpenCoreData

/// The example's one entity: an employee in a team.
public final class Employee: NSManagedObject {
    @Managed public var name: String?
    @Managed public var team: String?
}

public enum LiveListModel {
    /// Employee(name, team), built in code.
    public static func make() -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        model.entities = [NSEntityDescription(name: "Employee", className: "LiveList.Employee", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSAttributeDescription(name: "team", type: .stringAttributeType),
        ])]
        return model
    }
}

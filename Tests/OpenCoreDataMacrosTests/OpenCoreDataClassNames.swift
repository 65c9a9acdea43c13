// Written by `ocd port`: the class names this program's model gives without a module, which
// Xcode wrote beside `@objc(Name)`. Linux has no Objective-C runtime to find a class by
// that name, so the program registers it. Call `OpenCoreDataClassNames.register()` once,
// before it loads the model.
import OpenCoreDataMacros

enum OpenCoreDataClassNames {
    static func register() {
        NSManagedObject.register(PortedNotebook.self, forClassName: "PortedNotebook")
        NSManagedObject.register(PortedPage.self, forClassName: "PortedPage")
        NSManagedObject.register(PortedLabel.self, forClassName: "PortedLabel")
    }
}

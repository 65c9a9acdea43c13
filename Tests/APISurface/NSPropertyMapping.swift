import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nspropertymapping (iOS 18 / macOS 15 SDK),
// cross-checked against the generated Swift interface of CoreData/NSPropertyMapping.h and onestack.dev's
// iOS reference.

/// api: NSPropertyMapping.init()
func api_NSPropertyMapping_init() {
    let mapping: NSPropertyMapping = NSPropertyMapping()
    _ = mapping
}

/// api: NSPropertyMapping.name
func api_NSPropertyMapping_name(_ mapping: NSPropertyMapping) {
    let name: String? = mapping.name
    mapping.name = name
}

/// api: NSPropertyMapping.valueExpression
func api_NSPropertyMapping_valueExpression(_ mapping: NSPropertyMapping) {
    let expression: NSExpression? = mapping.valueExpression
    mapping.valueExpression = expression
}

/// api: NSPropertyMapping.userInfo
func api_NSPropertyMapping_userInfo(_ mapping: NSPropertyMapping) {
    let userInfo: [AnyHashable: Any]? = mapping.userInfo
    mapping.userInfo = userInfo
}

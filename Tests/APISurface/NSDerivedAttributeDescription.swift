import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsderivedattributedescription (iOS 18 / macOS 15 SDK),
// cross-checked against the generated Swift interface of CoreData/NSDerivedAttributeDescription.h and
// onestack.dev's iOS reference.

/// api: NSDerivedAttributeDescription.init()
func api_NSDerivedAttributeDescription_init() {
    let attribute: NSDerivedAttributeDescription = NSDerivedAttributeDescription()
    _ = attribute
}

/// api: NSDerivedAttributeDescription.derivationExpression
func api_NSDerivedAttributeDescription_derivationExpression(_ attribute: NSDerivedAttributeDescription) {
    let expression: NSExpression? = attribute.derivationExpression
    attribute.derivationExpression = expression
    attribute.derivationExpression = nil
}

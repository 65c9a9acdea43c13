import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nscompositeattributedescription (iOS 17+; iOS 18 /
// macOS 15 SDK), cross-checked against onestack.dev's iOS reference and the objc2-core-data header
// translation of CoreData/NSCompositeAttributeDescription.h.

/// api: NSCompositeAttributeDescription.init()
func api_NSCompositeAttributeDescription_init() {
    let attribute: NSCompositeAttributeDescription = NSCompositeAttributeDescription()
    _ = attribute
}

/// api: NSCompositeAttributeDescription.elements
func api_NSCompositeAttributeDescription_elements(_ attribute: NSCompositeAttributeDescription) {
    let elements: [NSAttributeDescription] = attribute.elements
    attribute.elements = elements
}

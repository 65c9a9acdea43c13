import OpenCoreData

// NSIncrementalStoreNode, spelled as in Apple's Swift documentation
// (developer.apple.com/documentation/coredata/nsincrementalstorenode and its per-symbol pages).

// MARK: - Initializing a node

/// api: NSIncrementalStoreNode.init(objectID:withValues:version:)
func api_NSIncrementalStoreNode_init_objectID_withValues_version(
    _ objectID: NSManagedObjectID, _ values: [String: Any]
) {
    final class Node: NSIncrementalStoreNode {}
    let _: NSIncrementalStoreNode = NSIncrementalStoreNode(objectID: objectID, withValues: values, version: 1)
    let _: Node = Node(objectID: objectID, withValues: [:], version: UInt64(0))
}

// MARK: - Managing node data

/// api: NSIncrementalStoreNode.objectID
func api_NSIncrementalStoreNode_objectID(_ node: NSIncrementalStoreNode) {
    let _: NSManagedObjectID = node.objectID
}

/// api: NSIncrementalStoreNode.update(withValues:version:)
func api_NSIncrementalStoreNode_update_withValues_version(
    _ node: NSIncrementalStoreNode, _ values: [String: Any], _ version: UInt64
) {
    node.update(withValues: values, version: version)
}

/// api: NSIncrementalStoreNode.value(for:)
func api_NSIncrementalStoreNode_value_for(_ node: NSIncrementalStoreNode, _ property: NSPropertyDescription) {
    let _: Any? = node.value(for: property)
}

/// api: NSIncrementalStoreNode.version
func api_NSIncrementalStoreNode_version(_ node: NSIncrementalStoreNode) {
    let _: UInt64 = node.version
}

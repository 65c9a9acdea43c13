import OpenCoreData

// NSAtomicStoreCacheNode, spelled as in Apple's Swift documentation
// (developer.apple.com/documentation/coredata/nsatomicstorecachenode and its per-symbol pages).

// MARK: - Initializing a cache node

/// api: NSAtomicStoreCacheNode.init(objectID:)
func api_NSAtomicStoreCacheNode_init_objectID(_ objectID: NSManagedObjectID) {
    final class Node: NSAtomicStoreCacheNode {}
    let _: NSAtomicStoreCacheNode = NSAtomicStoreCacheNode(objectID: objectID)
    let _: Node = Node(objectID: objectID)
}

// MARK: - Managing node data

/// api: NSAtomicStoreCacheNode.objectID
func api_NSAtomicStoreCacheNode_objectID(_ node: NSAtomicStoreCacheNode) {
    let _: NSManagedObjectID = node.objectID
}

// Apple: `var propertyCache: NSMutableDictionary? { get set }`
/// api: NSAtomicStoreCacheNode.propertyCache
func api_NSAtomicStoreCacheNode_propertyCache(_ node: NSAtomicStoreCacheNode) {
    let cache: NSMutableDictionary? = node.propertyCache
    node.propertyCache = cache
    node.propertyCache = nil
}

/// api: NSAtomicStoreCacheNode.value(forKey:)
func api_NSAtomicStoreCacheNode_value_forKey(_ node: NSAtomicStoreCacheNode, _ key: String) {
    let _: Any? = node.value(forKey: key)
}

/// api: NSAtomicStoreCacheNode.setValue(_:forKey:)
func api_NSAtomicStoreCacheNode_setValue_forKey(_ node: NSAtomicStoreCacheNode, _ value: Any?, _ key: String) {
    node.setValue(value, forKey: key)
    node.setValue(nil, forKey: key)
}

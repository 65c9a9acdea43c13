import OpenCoreData

// NSPersistentHistoryToken declares no members of its own; apps keep it and archive it, so the
// class and its documented NSSecureCoding and NSCopying conformances are checked.

/// api: NSPersistentHistoryToken
func api_NSPersistentHistoryToken_class(_ token: NSPersistentHistoryToken) {
    let _: NSObject = token
}

/// api: NSPersistentHistoryToken: NSSecureCoding
func api_NSPersistentHistoryToken_NSSecureCoding(_ token: NSPersistentHistoryToken) {
    let _: any NSSecureCoding = token
    let _: Bool = NSPersistentHistoryToken.supportsSecureCoding
}

/// api: NSPersistentHistoryToken: NSCopying
func api_NSPersistentHistoryToken_NSCopying(_ token: NSPersistentHistoryToken) {
    let _: any NSCopying = token
}

import OpenCoreData

/// api: NSQueryGenerationToken.current
func api_NSQueryGenerationToken_current() {
    let _: NSQueryGenerationToken = NSQueryGenerationToken.current
}

/// api: NSQueryGenerationToken.init(coder:)
func api_NSQueryGenerationToken_init_coder(_ coder: NSCoder) {
    let _: NSQueryGenerationToken? = NSQueryGenerationToken(coder: coder)
}

/// api: NSQueryGenerationToken: NSSecureCoding
func api_NSQueryGenerationToken_NSSecureCoding(_ token: NSQueryGenerationToken) {
    let _: any NSSecureCoding = token
    let _: Bool = NSQueryGenerationToken.supportsSecureCoding
}

/// api: NSQueryGenerationToken: NSCopying
func api_NSQueryGenerationToken_NSCopying(_ token: NSQueryGenerationToken) {
    let _: any NSCopying = token
}

// NSManagedObjectContext.queryGenerationToken and setQueryGenerationFrom(_:) are checked in
// NSManagedObjectContext.swift , so they are not repeated here.

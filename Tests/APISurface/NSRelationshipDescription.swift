import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsrelationshipdescription and .../nsdeleterule
// (iOS 18 / macOS 15 SDK), cross-checked against the generated Swift interface of
// CoreData/NSRelationshipDescription.h and onestack.dev's iOS reference.

/// api: NSRelationshipDescription.init()
func api_NSRelationshipDescription_init() {
    let relationship: NSRelationshipDescription = NSRelationshipDescription()
    _ = relationship
}

/// api: NSRelationshipDescription.inverseRelationship
func api_NSRelationshipDescription_inverseRelationship(_ relationship: NSRelationshipDescription) {
    let inverse: NSRelationshipDescription? = relationship.inverseRelationship
    relationship.inverseRelationship = inverse
    relationship.inverseRelationship = nil
}

/// api: NSRelationshipDescription.destinationEntity
func api_NSRelationshipDescription_destinationEntity(_ relationship: NSRelationshipDescription) {
    let destination: NSEntityDescription? = relationship.destinationEntity
    relationship.destinationEntity = destination
    relationship.destinationEntity = nil
}

/// api: NSRelationshipDescription.isOrdered
func api_NSRelationshipDescription_isOrdered(_ relationship: NSRelationshipDescription) {
    let ordered: Bool = relationship.isOrdered
    relationship.isOrdered = ordered
}

/// api: NSRelationshipDescription.isToMany
func api_NSRelationshipDescription_isToMany(_ relationship: NSRelationshipDescription) {
    let toMany: Bool = relationship.isToMany
    _ = toMany
}

/// api: NSRelationshipDescription.minCount
func api_NSRelationshipDescription_minCount(_ relationship: NSRelationshipDescription) {
    let minCount: Int = relationship.minCount
    relationship.minCount = minCount
}

/// api: NSRelationshipDescription.maxCount
func api_NSRelationshipDescription_maxCount(_ relationship: NSRelationshipDescription) {
    let maxCount: Int = relationship.maxCount
    relationship.maxCount = maxCount
}

/// api: NSRelationshipDescription.deleteRule
func api_NSRelationshipDescription_deleteRule(_ relationship: NSRelationshipDescription) {
    let rule: NSDeleteRule = relationship.deleteRule
    relationship.deleteRule = rule
    relationship.deleteRule = .cascadeDeleteRule
}

/// api: NSRelationshipDescription.versionHash
func api_NSRelationshipDescription_versionHash(_ relationship: NSRelationshipDescription) {
    let hash: Data = relationship.versionHash
    _ = hash
}

/// api: NSDeleteRule.noActionDeleteRule
func api_NSDeleteRule_noActionDeleteRule() {
    let rule: NSDeleteRule = .noActionDeleteRule
    let qualified: NSDeleteRule = NSDeleteRule.noActionDeleteRule
    _ = (rule, qualified)
}

/// api: NSDeleteRule.nullifyDeleteRule
func api_NSDeleteRule_nullifyDeleteRule() {
    let rule: NSDeleteRule = .nullifyDeleteRule
    let qualified: NSDeleteRule = NSDeleteRule.nullifyDeleteRule
    _ = (rule, qualified)
}

/// api: NSDeleteRule.cascadeDeleteRule
func api_NSDeleteRule_cascadeDeleteRule() {
    let rule: NSDeleteRule = .cascadeDeleteRule
    let qualified: NSDeleteRule = NSDeleteRule.cascadeDeleteRule
    _ = (rule, qualified)
}

/// api: NSDeleteRule.denyDeleteRule
func api_NSDeleteRule_denyDeleteRule() {
    let rule: NSDeleteRule = .denyDeleteRule
    let qualified: NSDeleteRule = NSDeleteRule.denyDeleteRule
    _ = (rule, qualified)
}

/// api: NSDeleteRule.init(rawValue:)
func api_NSDeleteRule_initRawValue(_ raw: UInt) {
    let rule: NSDeleteRule? = NSDeleteRule(rawValue: raw)
    _ = rule
}

/// api: NSDeleteRule.rawValue
func api_NSDeleteRule_rawValue(_ rule: NSDeleteRule) {
    let raw: UInt = rule.rawValue
    _ = raw
}

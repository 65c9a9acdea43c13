import OpenCoreData

/// api: NSMergePolicyType.errorMergePolicyType
func api_NSMergePolicyType_errorMergePolicyType() {
    let _: NSMergePolicyType = .errorMergePolicyType
}

/// api: NSMergePolicyType.mergeByPropertyStoreTrumpMergePolicyType
func api_NSMergePolicyType_mergeByPropertyStoreTrumpMergePolicyType() {
    let _: NSMergePolicyType = .mergeByPropertyStoreTrumpMergePolicyType
}

/// api: NSMergePolicyType.mergeByPropertyObjectTrumpMergePolicyType
func api_NSMergePolicyType_mergeByPropertyObjectTrumpMergePolicyType() {
    let _: NSMergePolicyType = .mergeByPropertyObjectTrumpMergePolicyType
}

/// api: NSMergePolicyType.overwriteMergePolicyType
func api_NSMergePolicyType_overwriteMergePolicyType() {
    let _: NSMergePolicyType = .overwriteMergePolicyType
}

/// api: NSMergePolicyType.rollbackMergePolicyType
func api_NSMergePolicyType_rollbackMergePolicyType() {
    let _: NSMergePolicyType = .rollbackMergePolicyType
}

/// api: NSMergePolicyType.init(rawValue:)
func api_NSMergePolicyType_init_rawValue() {
    let type: NSMergePolicyType? = NSMergePolicyType(rawValue: 0 as UInt)
    let _: UInt? = type?.rawValue
}

import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsfetchrequestresult
// (`protocol NSFetchRequestResult : NSObjectProtocol`; conforming types listed there: NSManagedObject,
// NSManagedObjectID), cross-checked against NSFetchRequest.h, which also declares the conformances
// of NSNumber and NSDictionary (`@interface NSNumber (NSFetchedResultSupport) <NSFetchRequestResult>`,
// likewise NSDictionary), used by count and dictionary fetches.

/// api: NSFetchRequestResult
func api_NSFetchRequestResult_protocol(_ result: any NSFetchRequestResult) {
    let results: [any NSFetchRequestResult] = [result]
    _ = results
}

/// api: NSFetchRequestResult (inherits NSObjectProtocol)
func api_NSFetchRequestResult_NSObjectProtocol(_ result: any NSFetchRequestResult) {
    let _: any NSObjectProtocol = result
}

/// api: NSFetchRequestResult (NSManagedObject conforms)
func api_NSFetchRequestResult_NSManagedObject(_ object: NSManagedObject) {
    let _: any NSFetchRequestResult = object
    let _: any NSFetchRequestResult.Type = NSManagedObject.self
}

/// api: NSFetchRequestResult (NSManagedObjectID conforms)
func api_NSFetchRequestResult_NSManagedObjectID(_ objectID: NSManagedObjectID) {
    let _: any NSFetchRequestResult = objectID
    let _: any NSFetchRequestResult.Type = NSManagedObjectID.self
}

/// api: NSFetchRequestResult (NSDictionary conforms)
func api_NSFetchRequestResult_NSDictionary(_ dictionary: NSDictionary) {
    let _: any NSFetchRequestResult = dictionary
    let _: any NSFetchRequestResult.Type = NSDictionary.self
}

/// api: NSFetchRequestResult (NSNumber conforms)
func api_NSFetchRequestResult_NSNumber(_ number: NSNumber) {
    let _: any NSFetchRequestResult = number
    let _: any NSFetchRequestResult.Type = NSNumber.self
}

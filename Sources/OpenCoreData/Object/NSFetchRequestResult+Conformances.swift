import Foundation

// The types a fetch returns are fetch results, as on Apple platforms, so a request typed
// `NSFetchRequest<NSFetchRequestResult>` — the form an `NSIncrementalStore` receives and casts
// to — can be fetched too: `try context.fetch(request)` returns `[NSFetchRequestResult]`.

extension NSManagedObject: NSFetchRequestResult {}
extension NSManagedObjectID: NSFetchRequestResult {}
extension NSNumber: NSFetchRequestResult {}
extension NSDictionary: NSFetchRequestResult {}
extension Dictionary: NSFetchRequestResult where Key == String, Value == Any {}

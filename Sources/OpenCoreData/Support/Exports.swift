// Code written for Apple's Core Data says `import CoreData` and gets Foundation with it.
// `import OpenCoreData` does the same, so a ported file needs no other import — and must not
// import Foundation itself, or `NSPredicate` becomes ambiguous (see docs/DEVIATIONS.md).
@_exported import Foundation

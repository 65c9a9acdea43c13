import OpenCoreData
import XCTest

// XCTest re-exports Foundation on Linux, so in a test file `NSSortDescriptor` in a type
// position is ambiguous between Foundation's and ours; declarations in the test module win.
typealias NSPredicate = OpenCoreData.NSPredicate
typealias NSSortDescriptor = OpenCoreData.NSSortDescriptor

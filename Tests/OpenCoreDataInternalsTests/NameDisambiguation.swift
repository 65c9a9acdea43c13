import OpenCoreData
import XCTest

// XCTest re-exports Foundation on Linux, so in a test file `NSPredicate` in a type position is
// ambiguous between Foundation's and ours. Declarations in the test module win over imports;
// each test module declares these (a module's typealiases do not reach another module).
typealias NSPredicate = OpenCoreData.NSPredicate
typealias NSComparisonPredicate = OpenCoreData.NSComparisonPredicate
typealias NSCompoundPredicate = OpenCoreData.NSCompoundPredicate
typealias NSExpression = OpenCoreData.NSExpression

import OpenCoreData
import XCTest

// XCTest re-exports Foundation on Linux, so in a test file `NSPredicate` in a type position is
// ambiguous between Foundation's and ours. Declarations in the test module win over imports:
typealias NSPredicate = OpenCoreData.NSPredicate
typealias NSComparisonPredicate = OpenCoreData.NSComparisonPredicate
typealias NSCompoundPredicate = OpenCoreData.NSCompoundPredicate
typealias NSExpression = OpenCoreData.NSExpression


/// A small key-value-coding class standing in for a managed object in tests.
final class Person: KeyValueCoding, Hashable, CustomStringConvertible {
    let name: String
    let age: Int
    let salary: Double?
    var friends: Set<Person> = []
    var manager: Person?
    var nickname: String?
    var birthday: Date?

    init(_ name: String, age: Int, salary: Double? = nil) {
        self.name = name
        self.age = age
        self.salary = salary
    }

    func checkedValue(forKey key: String) throws -> Any? {
        switch key {
        case "name": return name
        case "age": return age
        case "salary": return salary
        case "friends": return friends
        case "manager": return manager
        case "nickname": return nickname
        case "birthday": return birthday
        case "ageInt16": return Int16(age)
        default: throw KeyValueCodingError.undefinedKey(key, in: "Person")
        }
    }

    static func == (a: Person, b: Person) -> Bool { a === b }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    var description: String { "Person(\(name))" }
}

/// Parses `format` with `args`, failing the test (not crashing) when it does not parse.
func parse(_ format: String, _ args: Any..., file: StaticString = #filePath, line: UInt = #line) -> NSPredicate {
    do {
        return try NSPredicate(validatingFormat: format, argumentArray: args)
    } catch {
        XCTFail("\(format) did not parse: \(error.localizedDescription)", file: file, line: line)
        return NSPredicate(value: false)
    }
}

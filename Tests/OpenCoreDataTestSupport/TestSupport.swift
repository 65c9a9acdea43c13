import OpenCoreData
import XCTest

// XCTest re-exports Foundation on Linux, so `NSPredicate` in a type position is ambiguous
// between Foundation's and ours. Declarations in the module win over imports; each test module
// declares these (see the test targets' NameDisambiguation.swift):
typealias NSPredicate = OpenCoreData.NSPredicate
typealias NSComparisonPredicate = OpenCoreData.NSComparisonPredicate
typealias NSCompoundPredicate = OpenCoreData.NSCompoundPredicate
typealias NSExpression = OpenCoreData.NSExpression


/// A small key-value-coding class standing in for a managed object in tests.
public final class Person: KeyValueCoding, Hashable, CustomStringConvertible {
    public let name: String
    public let age: Int
    public let salary: Double?
    public var friends: Set<Person> = []
    public var manager: Person?
    public var nickname: String?
    public var birthday: Date?

    public init(_ name: String, age: Int, salary: Double? = nil) {
        self.name = name
        self.age = age
        self.salary = salary
    }

    public func checkedValue(forKey key: String) throws -> Any? {
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

    public static func == (a: Person, b: Person) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { "Person(\(name))" }
}

/// Parses `format` with `args`, failing the test (not crashing) when it does not parse.
public func parse(_ format: String, _ args: Any..., file: StaticString = #filePath, line: UInt = #line) -> OpenCoreData.NSPredicate {
    do {
        return try NSPredicate(validatingFormat: format, argumentArray: args)
    } catch {
        XCTFail("\(format) did not parse: \(error.localizedDescription)", file: file, line: line)
        return NSPredicate(value: false)
    }
}

import Foundation

/// Property lists read from files the program does not control (store metadata, a compiled
/// model's `VersionInfo.plist`, keyed archives), checked before Foundation parses them.
///
/// ```swift
/// let plist = try UntrustedPropertyList.propertyList(from: data)   // or a thrown refusal
/// ```
///
/// Foundation on Linux crashes the process on some damaged binary property lists: a set
/// (marker `0xC`) whose members don't bridge to `AnyHashable`, found by the fuzz tests. No
/// property list Core Data or Xcode writes holds a set (keyed archives encode `NSSet` as an
/// object with `NS.objects`), so a binary property list with one is refused, as is one whose
/// trailer or offset table points outside the data.
enum UntrustedPropertyList {
    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    static func propertyList(from data: Data, format: UnsafeMutablePointer<PropertyListSerialization.PropertyListFormat>? = nil) throws -> Any {
        if let problem = binaryProblem(data) { throw Refused(description: "not a property list Core Data can read: \(problem)") }
        return try PropertyListSerialization.propertyList(from: data, options: [], format: format)
    }

    /// Why a binary property list is refused, or nil (also for other formats, which Foundation
    /// parses without this risk).
    static func binaryProblem(_ data: Data) -> String? {
        let bytes = [UInt8](data)
        guard bytes.starts(with: Array("bplist00".utf8)) else { return nil }
        guard bytes.count >= 8 + 32 else { return "a binary property list too short for its trailer" }
        let trailer = bytes.count - 32
        func integer(_ start: Int, _ size: Int) -> Int? {
            guard size > 0, size <= 8, start >= 0, start + size <= bytes.count else { return nil }
            let value = bytes[start..<start + size].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return value > UInt64(Int.max) ? nil : Int(value)
        }
        guard let offsetSize = integer(trailer + 6, 1), (1...8).contains(offsetSize),
              let referenceSize = integer(trailer + 7, 1), (1...8).contains(referenceSize),
              let count = integer(trailer + 8, 8), let top = integer(trailer + 16, 8), let table = integer(trailer + 24, 8),
              count > 0, top < count, table >= 8, table <= trailer, count <= (trailer - table) / offsetSize
        else { return "its trailer does not fit the data" }
        for index in 0..<count {
            guard let offset = integer(table + index * offsetSize, offsetSize), offset >= 8, offset < table else {
                return "object \(index) lies outside the object table"
            }
            if bytes[offset] >> 4 == 0xC { return "object \(index) is a set, which no Core Data or Xcode file holds" }
        }
        return nil
    }
}

import Foundation
import NIOCore
import OpenCoreData
import PostgresNIO

/// A value sent to or read from PostgreSQL: the column types Core Data's attributes map to.
///
/// ```swift
/// try connection.query("INSERT INTO ZNOTE (Z_PK, ZTEXT, ZBODY) VALUES ($1, $2, $3)",
///                      [.integer(1), .text("hello"), .null])
/// ```
///
/// Integers of every width read as ``integer(_:)``, `real` and `double precision` as
/// ``double(_:)``, `text`, `varchar` and `name` as ``text(_:)``, `bytea` as ``bytes(_:)``.
/// A column of another type throws `NSPersistentStoreOperationError` naming it: the store asks
/// only for the types it creates, so such a column is a schema the store did not make.
enum PostgreSQLValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    case text(String)
    case bytes(Data)

    /// Appends this value to a query's bindings.
    func bind(to bindings: inout PostgresBindings) {
        switch self {
        case .null: bindings.appendNull()
        case .integer(let value): bindings.append(value)
        case .double(let value): bindings.append(value)
        case .bool(let value): bindings.append(value)
        case .text(let value): bindings.append(value)
        case .bytes(let value): bindings.append(ByteBuffer(bytes: value))  // `Data`'s encoding can throw; a buffer's cannot
        }
    }

    /// The value of a result's cell.
    init(cell: PostgresCell) throws {
        guard cell.bytes != nil else { self = .null; return }
        do {
            switch cell.dataType {
            case .int2, .int4, .int8: self = .integer(try cell.decode(Int64.self))
            case .float4, .float8: self = .double(try cell.decode(Double.self))
            case .bool: self = .bool(try cell.decode(Bool.self))
            case .text, .varchar, .name, .bpchar: self = .text(try cell.decode(String.self))
            case .bytea: self = .bytes(try cell.decode(Data.self))
            default:
                throw NSError(domain: NSCocoaErrorDomain, code: NSPersistentStoreOperationError, userInfo: [
                    NSLocalizedDescriptionKey: "Column \(cell.columnName) has PostgreSQL type \(cell.dataType), which the PostgreSQL store does not read. The store reads the integer, floating-point, boolean, text and bytea columns it creates.",
                ])
            }
        } catch let error as NSError where error.domain == NSCocoaErrorDomain {
            throw error
        } catch {
            throw NSError(domain: NSCocoaErrorDomain, code: NSPersistentStoreOperationError, userInfo: [
                NSLocalizedDescriptionKey: "Column \(cell.columnName) (PostgreSQL type \(cell.dataType)) could not be read: \(error)",
                NSUnderlyingErrorKey: error,
            ])
        }
    }
}

import Foundation
import NIOCore
@_spi(PostgreSQLDriver) import OpenCoreData
import PostgresNIO

/// How ``PostgreSQLValue`` (the store's value type, in `OpenCoreData`) travels through
/// postgres-nio.
///
/// Integers of every width read as `integer`, `real` and `double precision` as `double`,
/// `text`, `varchar` and `name` as `text`, `bytea` as `bytes`. A column of another type throws
/// `NSPersistentStoreOperationError` naming it: the store asks only for the types it reads.
extension PostgreSQLValue {
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

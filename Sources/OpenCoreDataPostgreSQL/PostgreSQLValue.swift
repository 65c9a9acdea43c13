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
        guard let bytes = cell.bytes else { self = .null; return }
        if let value = Self.fixedWidth(bytes, cell) {
            assert(Self.same(value, try? Self.decoded(cell)), "the fixed-width read of \(cell.dataType) disagrees with postgres-nio's")
            self = value
            return
        }
        self = try Self.decoded(cell)
    }

    /// The value of a binary integer, `double precision` or Boolean cell read straight from
    /// its bytes (big-endian, as PostgreSQL sends them); nil for any other cell. The store's
    /// rows are mostly such cells, and postgres-nio's generic decoding costs several times the
    /// read (a tenth of P2 of `ocd-bench --postgresql`). Debug builds check it against that
    /// decoding.
    private static func fixedWidth(_ bytes: ByteBuffer, _ cell: PostgresCell) -> PostgreSQLValue? {
        guard cell.format == .binary else { return nil }
        let at = bytes.readerIndex
        switch (cell.dataType, bytes.readableBytes) {
        case (.int8, 8): return bytes.getInteger(at: at, as: Int64.self).map { .integer($0) }
        case (.int4, 4): return bytes.getInteger(at: at, as: Int32.self).map { .integer(Int64($0)) }
        case (.int2, 2): return bytes.getInteger(at: at, as: Int16.self).map { .integer(Int64($0)) }
        case (.float8, 8): return bytes.getInteger(at: at, as: UInt64.self).map { .double(Double(bitPattern: $0)) }
        case (.bool, 1): return bytes.getInteger(at: at, as: UInt8.self).map { .bool($0 != 0) }
        default: return nil
        }
    }

    /// Whether two reads of one cell agree (NaN agrees with NaN).
    private static func same(_ a: PostgreSQLValue, _ b: PostgreSQLValue?) -> Bool {
        if case .double(let x) = a, case .double(let y)? = b, x.isNaN && y.isNaN { return true }
        return a == b
    }

    /// The value of a cell through postgres-nio's decoding.
    private static func decoded(_ cell: PostgresCell) throws -> PostgreSQLValue {
        do {
            switch cell.dataType {
            case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
            case .float4, .float8: return .double(try cell.decode(Double.self))
            case .bool: return .bool(try cell.decode(Bool.self))
            case .text, .varchar, .name, .bpchar: return .text(try cell.decode(String.self))
            case .bytea: return .bytes(try cell.decode(Data.self))
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

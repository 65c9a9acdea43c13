import CSQLite
import Foundation
import OpenCoreData
import OpenCoreDataMacros

/// A row of realistic types (W10): three strings of 10–40 characters, a date, a double, a
/// Boolean, a UUID, 100 bytes of binary data and an optional 32-bit integer.
public final class BenchMixed: NSManagedObject {
    @ManagedProperty public var title: String?
    @ManagedProperty public var author: String?
    @ManagedProperty public var note: String?
    @ManagedProperty public var created: Date?
    @ManagedProperty public var price: Double
    @ManagedProperty public var isActive: Bool
    @ManagedProperty public var identifier: UUID?
    @ManagedProperty public var payload: Data?
    @ManagedProperty public var rank: Int32?

    /// Row `i`'s values (the raw side writes the same ones).
    public func fill(_ i: Int, _ values: MixedValues) {
        title = values.title(i); author = values.author(i); note = values.note(i)
        created = Date(timeIntervalSinceReferenceDate: Double(i))
        price = Double(i) * 0.25
        isActive = i % 2 == 0
        identifier = values.uuid(i)
        payload = values.payload
        rank = i % 3 == 0 ? nil : Int32(i)
    }
}

/// The values of W10's rows, made before timing starts.
public struct MixedValues {
    public init() {}

    public let payload = Data((0..<100).map { UInt8($0) })
    public func title(_ i: Int) -> String { "Title of row number \(i)" }                                 // 20–26 characters
    public func author(_ i: Int) -> String { "Author \(i)" }                                              // 8–13
    public func note(_ i: Int) -> String { "A note of some length about row \(i), for W10" }          // 38–45
    /// Row `i`'s checksum as W10_mixed_fetch sums it: the strings' UTF-8 lengths, the date's
    /// seconds, the price, the flag, the UUID's last byte, the payload's length, the rank.
    public func checksum(_ i: Int) -> Int {
        title(i).utf8.count &+ author(i).utf8.count &+ note(i).utf8.count &+ i &+ Int(Double(i) * 0.25)
            &+ (i % 2 == 0 ? 1 : 0) &+ (i & 0xFF) &+ payload.count &+ (i % 3 == 0 ? 0 : i)
    }
    public func uuid(_ i: Int) -> UUID {
        let n = UInt64(i)
        return UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, UInt8(n >> 56 & 0xFF), UInt8(n >> 48 & 0xFF), UInt8(n >> 40 & 0xFF), UInt8(n >> 32 & 0xFF),
                           UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)))
    }
}

/// W10: inserting and reading rows of realistic types, against raw SQLite binding and reading
/// the same columns (text and blobs read in place, as a C program would).
public struct MixedWorkloads {
    let bench: BenchRun
    var inserts: Int { bench.sizes.mixedInserts }
    var reads: Int { bench.sizes.mixedReads }
    private let values = MixedValues()

    public init(bench: BenchRun) { self.bench = bench }

    public static let keys = ["W10_mixed_insert", "W10_mixed_fetch"]

    public static let model: NSManagedObjectModel = {
        let model = NSManagedObjectModel()
        model.entities = [NSEntityDescription(name: "BenchMixed", className: "OCDBenchKit.BenchMixed", properties: [
            NSAttributeDescription(name: "title", type: .stringAttributeType),
            NSAttributeDescription(name: "author", type: .stringAttributeType),
            NSAttributeDescription(name: "note", type: .stringAttributeType),
            NSAttributeDescription(name: "created", type: .dateAttributeType),
            NSAttributeDescription(name: "price", type: .doubleAttributeType, isOptional: false, defaultValue: 0.0),
            NSAttributeDescription(name: "isActive", type: .booleanAttributeType, isOptional: false, defaultValue: false),
            NSAttributeDescription(name: "identifier", type: .UUIDAttributeType),
            NSAttributeDescription(name: "payload", type: .binaryDataAttributeType),
            NSAttributeDescription(name: "rank", type: .integer32AttributeType),
        ])]
        return model
    }()

    private func context(_ name: String) throws -> NSManagedObjectContext {
        try BenchModel.context(at: bench.path("\(name).sqlite"), model: Self.model)
    }

    /// Inserts rows `first ..< first + count` with one save.
    private func insert(_ count: Int, from first: Int = 0, into context: NSManagedObjectContext) throws {
        try Self.insert(count, from: first, values: values, into: context)
    }

    private static func insert(_ count: Int, from first: Int, values: MixedValues, into context: NSManagedObjectContext) throws {
        try context.performAndWait {
            for i in first..<(first + count) { BenchMixed(context: context).fill(i, values) }
            try context.save()
            context.reset()
        }
    }

    private func rawStore(_ name: String) throws -> RawSQLite {
        let raw = try RawSQLite(path: bench.path("\(name).sqlite").path)
        try raw.exec("CREATE TABLE MIXED (ID INTEGER PRIMARY KEY, TITLE TEXT, AUTHOR TEXT, NOTE TEXT, CREATED REAL, PRICE REAL, ISACTIVE INTEGER, IDENTIFIER BLOB, PAYLOAD BLOB, RANK INTEGER)")
        return raw
    }

    private func rawInsert(_ count: Int, into raw: RawSQLite) throws {
        try raw.exec("BEGIN")
        let statement = try raw.prepare("INSERT INTO MIXED (TITLE, AUTHOR, NOTE, CREATED, PRICE, ISACTIVE, IDENTIFIER, PAYLOAD, RANK) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        defer { sqlite3_finalize(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for i in 0..<count {
            RawSQLite.bind(values.title(i), to: statement, at: 1)
            RawSQLite.bind(values.author(i), to: statement, at: 2)
            RawSQLite.bind(values.note(i), to: statement, at: 3)
            sqlite3_bind_double(statement, 4, Double(i))
            sqlite3_bind_double(statement, 5, Double(i) * 0.25)
            sqlite3_bind_int64(statement, 6, i % 2 == 0 ? 1 : 0)
            withUnsafeBytes(of: values.uuid(i).uuid) { _ = sqlite3_bind_blob(statement, 7, $0.baseAddress, 16, transient) }
            values.payload.withUnsafeBytes { _ = sqlite3_bind_blob(statement, 8, $0.baseAddress, Int32($0.count), transient) }
            if i % 3 == 0 { sqlite3_bind_null(statement, 9) } else { sqlite3_bind_int64(statement, 9, Int64(i)) }
            guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchError("insert mixed") }
            sqlite3_reset(statement)
        }
        try raw.exec("COMMIT")
    }

    public func run(_ selected: (String) -> Bool) throws {
        if selected("W10_mixed_insert") {
            try bench.measure("W10_mixed_insert_\(inserts)", key: "W10_mixed_insert", ocd: { run in
                let context = try context("w10i-\(run)")
                return try time { try insert(inserts, into: context) }
            }, raw: { run in
                let raw = try rawStore("w10i-raw-\(run)")
                return try time { try rawInsert(inserts, into: raw) }
            })
        }
        if selected("W10_mixed_fetch") {
            let context = try context("w10f")
            try Self.fill(context, rows: reads)
            let raw = try rawStore("w10f-raw")
            try rawInsert(reads, into: raw)
            /// Every attribute of every row read in place; returns a checksum of the values.
            func rawScan() throws -> (sum: Int, seconds: Double) {
                let statement = try raw.prepare("SELECT ID, TITLE, AUTHOR, NOTE, CREATED, PRICE, ISACTIVE, IDENTIFIER, PAYLOAD, RANK FROM MIXED")
                defer { sqlite3_finalize(statement) }
                var sum = 0
                let seconds = time {
                    while sqlite3_step(statement) == SQLITE_ROW {
                        for column: Int32 in 1...3 {
                            _ = sqlite3_column_text(statement, column)
                            sum &+= Int(sqlite3_column_bytes(statement, column))
                        }
                        sum &+= Int(sqlite3_column_double(statement, 4)) &+ Int(sqlite3_column_double(statement, 5)) &+ Int(sqlite3_column_int64(statement, 6))
                        if let uuid = sqlite3_column_blob(statement, 7), sqlite3_column_bytes(statement, 7) == 16 {
                            sum &+= Int(uuid.load(fromByteOffset: 15, as: UInt8.self))
                        }
                        _ = sqlite3_column_blob(statement, 8)
                        sum &+= Int(sqlite3_column_bytes(statement, 8)) &+ Int(sqlite3_column_int64(statement, 9))
                    }
                }
                return (sum, seconds)
            }
            let expected = try rawScan().sum
            try bench.measure("W10_mixed_fetch_\(reads)", key: "W10_mixed_fetch", ocd: { _ in
                var sum = 0
                let seconds = try time {
                    try context.performAndWait {
                        for row in try context.fetch(NSFetchRequest<BenchMixed>(entityName: "BenchMixed")) { sum &+= row.checksum }
                        context.reset()
                    }
                }
                precondition(sum == expected, "W10_mixed_fetch: checksums differ: \(sum) vs \(expected)")
                return seconds
            }, raw: { _ in try rawScan().seconds })
        }
    }

    /// Rows `0 ..< rows` in `context`'s store, 50,000 per save.
    private static func fill(_ context: NSManagedObjectContext, rows: Int) throws {
        let values = MixedValues()
        for chunk in stride(from: 0, to: rows, by: 50_000) { try insert(min(50_000, rows - chunk), from: chunk, values: values, into: context) }
    }

    /// A store of `rows` W10 rows at `url`, as W10_mixed_fetch reads them.
    public static func writeStore(rows: Int, at url: URL) throws {
        try fill(BenchModel.context(at: url, model: model), rows: rows)
    }

    /// Resident bytes per object of W10_mixed_fetch's fetch (every attribute read), above what
    /// the process held before it: while held, and at the peak. Run it in a fresh process.
    public static func residentBytesPerFetchedObject(storeAt url: URL, rows: Int) throws -> (held: Double, peak: Double) {
        let context = try BenchModel.context(at: url, model: model)
        return try context.performAndWait {
            try OCDBenchKit.residentBytesPerFetchedObject(rows: rows, warmUp: {
                _ = try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "BenchMixed"))
            }, fetch: {
                try context.fetch(NSFetchRequest<BenchMixed>(entityName: "BenchMixed"))
            }, check: { $0.reduce(0) { $0 &+ $1.checksum } != 0 })
        }
    }
}

extension BenchMixed {
    /// Every attribute read, summed the way the raw side sums its columns.
    var checksum: Int {
        var sum = (title?.utf8.count ?? 0) &+ (author?.utf8.count ?? 0) &+ (note?.utf8.count ?? 0)
        sum &+= Int(created?.timeIntervalSinceReferenceDate ?? 0) &+ Int(price) &+ (isActive ? 1 : 0)
        sum &+= Int(identifier?.uuid.15 ?? 0) &+ (payload?.count ?? 0) &+ Int(rank ?? 0)
        return sum
    }
}

@testable import OpenCoreData
import OpenCoreDataTestSupport
import CSQLite
import XCTest

/// `SQLiteStatement` reads the current row's column values where SQLite keeps them (at a fixed
/// stride from column 0's, checked on the statement's first row) instead of looking each one
/// up. Internal, so through `@testable`. What would break silently is a value read from the
/// wrong place: each test compares every read with SQLite's own column functions, row by row,
/// for every storage class and for statements of one column, many columns and compound selects.
final class SQLiteStatementColumnTests: XCTestCase {
    private var directory: URL!
    private var db: SQLiteConnection!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("statement-columns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        db = try SQLiteConnection(path: directory.appendingPathComponent("t.sqlite").path, readOnly: false)
        for sql in ["CREATE TABLE T (ID INTEGER PRIMARY KEY, A, B, C, D, E)",
                    "INSERT INTO T VALUES (1, 7, 2.5, 'text', NULL, x'0102')",
                    "INSERT INTO T VALUES (2, -9223372036854775808, 1e300, '', 3, x'')",
                    "INSERT INTO T VALUES (3, NULL, 4, 5.0, 'x', 9223372036854775807)"] {
            try db.execute(sql)
        }
    }

    override func tearDownWithError() throws {
        db = nil
        try? FileManager.default.removeItem(at: directory)
    }

    /// Every read of `statement`'s current row, as `SQLiteStatement` answers it and as SQLite's
    /// column functions do.
    private func assertReadsMatch(_ statement: SQLiteStatement, row: Int, file: StaticString = #filePath, line: UInt = #line) {
        let handle = statement.handle
        for column in 0..<sqlite3_column_count(handle) {
            let type = sqlite3_column_type(handle, column)
            let context = "row \(row), column \(column)"
            XCTAssertEqual(statement.storageClass(at: column), type, context, file: file, line: line)
            XCTAssertEqual(statement.isNull(at: column), type == SQLITE_NULL, context, file: file, line: line)
            XCTAssertEqual(statement.int64(at: column), sqlite3_column_int64(handle, column), context, file: file, line: line)
            XCTAssertEqual(statement.double(at: column), sqlite3_column_double(handle, column), context, file: file, line: line)
            XCTAssertEqual(statement.integerIfStored(at: column), type == SQLITE_INTEGER ? sqlite3_column_int64(handle, column) : nil, context, file: file, line: line)
            let number: Double? = type == SQLITE_INTEGER || type == SQLITE_FLOAT ? sqlite3_column_double(handle, column) : nil
            XCTAssertEqual(statement.numberIfStored(at: column), number, context, file: file, line: line)
        }
    }

    func testEveryStorageClassReadsAsSQLiteReadsIt() throws {
        let statement = try db.statement("SELECT ID, A, B, C, D, E FROM T ORDER BY ID")
        var rows = 0
        while try statement.step() {
            rows += 1
            assertReadsMatch(statement, row: rows)
        }
        XCTAssertEqual(rows, 3)
    }

    func testColumnsReadInAnyOrderAndRepeatedly() throws {
        let statement = try db.statement("SELECT E, D, C, B, A, ID FROM T WHERE ID = 1")
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(statement.int64(at: 5), 1)
        XCTAssertEqual(statement.integerIfStored(at: 4), 7)
        XCTAssertEqual(statement.text(at: 2), "text")  // a text read between value reads
        XCTAssertEqual(statement.numberIfStored(at: 3), 2.5)
        XCTAssertTrue(statement.isNull(at: 1))
        XCTAssertEqual(statement.blob(at: 0), Data([1, 2]))
        XCTAssertEqual(statement.integerIfStored(at: 4), 7)
        XCTAssertFalse(try statement.step())
    }

    func testOneColumnAndCompoundStatements() throws {
        let single = try db.statement("SELECT A FROM T ORDER BY ID")
        var rows = 0
        while try single.step() { rows += 1; assertReadsMatch(single, row: rows) }
        XCTAssertEqual(rows, 3)

        // Each arm of a compound select may hand its rows over in registers of its own.
        let compound = try db.statement("SELECT ID, A, B FROM T WHERE ID < 3 UNION ALL SELECT C, D, E FROM T UNION ALL SELECT 1, 2.5, 'x'")
        rows = 0
        while try compound.step() { rows += 1; assertReadsMatch(compound, row: rows) }
        XCTAssertEqual(rows, 6)
    }

    func testARerunStatementReadsItsNewRows() throws {
        let statement = try db.statement("SELECT ID, A FROM T WHERE ID = ?")
        for id in [Int64(3), 1, 2] {
            statement.reset()
            statement.bind(id, at: 1)
            XCTAssertTrue(try statement.step())
            XCTAssertEqual(statement.int64(at: 0), id)
            assertReadsMatch(statement, row: Int(id))
            XCTAssertFalse(try statement.step())
        }
    }

    func testAColumnOutsideTheRowReadsAsSQLiteAnswersIt() throws {
        let statement = try db.statement("SELECT ID, A FROM T WHERE ID = 1")
        XCTAssertTrue(try statement.step())
        // SQLite answers a column out of range as NULL (and sets a range error); no read in place.
        XCTAssertTrue(statement.isNull(at: 2))
        XCTAssertTrue(statement.isNull(at: -1))
        XCTAssertNil(statement.integerIfStored(at: 7))
    }
}

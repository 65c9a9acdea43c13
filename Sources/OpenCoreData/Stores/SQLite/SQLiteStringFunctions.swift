import CSQLite
import Foundation

extension SQLiteConnection {
    /// Registers what ``SQLitePredicateFilter`` uses, each calling the Swift code the in-memory
    /// evaluator calls, so SQL never answers differently:
    /// - the `OCD_UNICODE` collation: Swift's string order, which respects canonical
    ///   equivalence as the evaluator's `<` and `==` do;
    /// - `OCD_COMPARE` / `OCD_COMPARE_CI`: `String.compare(_:)`, for sort descriptors;
    /// - `ocd_fold(text, options)`: ``PredicateStringFolding`` with `NSComparisonPredicate.Options`
    ///   raw bits for `[c]` and `[d]`;
    /// - `ocd_match(operator, options, subject, pattern)`: 1 when `subject <operator>[options]
    ///   pattern` holds as ``ComparisonEvaluator`` decides it (BEGINSWITH, ENDSWITH, CONTAINS,
    ///   LIKE, MATCHES; raw values of `NSComparisonPredicate.Operator` and `.Options`), else 0 —
    ///   never NULL, so it can be negated; a NULL subject or pattern is nil, as in memory;
    /// - `ocd_sum(x)`: the aggregate `@sum` computes (`NumericValue.adding`: integers stay exact
    ///   and turn into a Double on overflow instead of failing like SQLite's `SUM`; 0 when empty).
    ///
    /// ```sql
    /// SELECT Z_PK FROM ZEMPLOYEE WHERE ocd_match(8, 3, ZEMPLOYEE.ZLASTNAME, ?)  -- lastName BEGINSWITH[cd] ?
    /// ```
    ///
    /// All are deterministic, so SQLite may use them freely.
    func registerPredicateFunctions() throws {
        func check(_ rc: Int32, _ name: String) throws {
            guard rc == SQLITE_OK else { throw SQLiteError(code: rc, extendedCode: rc, message: "can't register \(name)", sql: nil) }
        }
        try check(sqlite3_create_collation_v2(handle, "OCD_UNICODE", SQLITE_UTF8, nil, { _, count1, bytes1, count2, bytes2 in
            let a = String(decoding: UnsafeRawBufferPointer(start: bytes1, count: Int(count1)), as: UTF8.self)
            let b = String(decoding: UnsafeRawBufferPointer(start: bytes2, count: Int(count2)), as: UTF8.self)
            return a < b ? -1 : (a == b ? 0 : 1)
        }, nil), "collation OCD_UNICODE")
        // Sorting (SQLiteFetchQuery): NSSortDescriptor.compareValues orders strings with
        // String.compare(_:) (options .caseInsensitive for caseInsensitiveCompare:), a different
        // function than the predicate evaluator's `<`; these collations call exactly that.
        try check(sqlite3_create_collation_v2(handle, "OCD_COMPARE", SQLITE_UTF8, nil, { _, count1, bytes1, count2, bytes2 in
            let a = String(decoding: UnsafeRawBufferPointer(start: bytes1, count: Int(count1)), as: UTF8.self)
            let b = String(decoding: UnsafeRawBufferPointer(start: bytes2, count: Int(count2)), as: UTF8.self)
            return Int32(a.compare(b).rawValue)
        }, nil), "collation OCD_COMPARE")
        try check(sqlite3_create_collation_v2(handle, "OCD_COMPARE_CI", SQLITE_UTF8, nil, { _, count1, bytes1, count2, bytes2 in
            let a = String(decoding: UnsafeRawBufferPointer(start: bytes1, count: Int(count1)), as: UTF8.self)
            let b = String(decoding: UnsafeRawBufferPointer(start: bytes2, count: Int(count2)), as: UTF8.self)
            return Int32(a.compare(b, options: .caseInsensitive).rawValue)
        }, nil), "collation OCD_COMPARE_CI")
        try check(sqlite3_create_function_v2(handle, "ocd_fold", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, _, arguments in
            guard let arguments, let string = SQLiteStringFunctions.text(arguments[0]) else { sqlite3_result_null(context); return }
            let options = NSComparisonPredicate.Options(rawValue: UInt(max(0, sqlite3_value_int64(arguments[1]))))
            SQLiteStringFunctions.resultText(context, PredicateStringFolding.fold(string, options: options))
        }, nil, nil, nil), "function ocd_fold")
        try check(sqlite3_create_function_v2(handle, "ocd_match", 4, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, _, arguments in
            guard let arguments else { sqlite3_result_int(context, 0); return }
            SQLiteStringFunctions.match(context, arguments)
        }, nil, nil, nil), "function ocd_match")
        try check(sqlite3_create_function_v2(handle, "ocd_sum", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, nil, { context, _, arguments in
            guard let arguments else { return }
            SQLiteStringFunctions.sumStep(context, arguments[0])
        }, { context in
            SQLiteStringFunctions.sumFinal(context)
        }, nil), "function ocd_sum")
    }
}

/// The bodies of the SQL functions ``SQLiteConnection/registerPredicateFunctions()`` registers.
enum SQLiteStringFunctions {
    /// A TEXT argument as a Swift string; nil for NULL.
    static func text(_ value: OpaquePointer?) -> String? {
        guard sqlite3_value_type(value) != SQLITE_NULL, let bytes = sqlite3_value_text(value) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
    }

    static func resultText(_ context: OpaquePointer?, _ string: String) {
        let count = string.utf8.count
        string.withCString { sqlite3_result_text(context, $0, Int32(count), unsafeBitCast(-1, to: sqlite3_destructor_type.self)) }
    }

    /// The evaluator's preparation of a constant pattern (folded string, compiled regex), kept
    /// by SQLite as auxiliary data of the pattern argument for the whole statement, so a
    /// `MATCHES` pattern is compiled once per query rather than once per row.
    private final class PreparedPattern {
        let pattern: String?
        let prepared: ComparisonEvaluator.Prepared
        init(pattern: String?, prepared: ComparisonEvaluator.Prepared) {
            self.pattern = pattern
            self.prepared = prepared
        }
    }

    /// `ocd_match(operator, options, subject, pattern)`.
    static func match(_ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>) {
        guard let op = NSComparisonPredicate.Operator(rawValue: UInt(max(0, sqlite3_value_int64(arguments[0])))) else {
            sqlite3_result_error(context, "ocd_match: unknown operator", -1)
            return
        }
        let options = NSComparisonPredicate.Options(rawValue: UInt(max(0, sqlite3_value_int64(arguments[1]))))
        let subject = text(arguments[2])
        let pattern = text(arguments[3])
        let box: PreparedPattern
        if let cached = sqlite3_get_auxdata(context, 3).map({ Unmanaged<PreparedPattern>.fromOpaque($0).takeUnretainedValue() }),
           cached.pattern == pattern {
            box = cached
        } else {
            box = PreparedPattern(pattern: pattern, prepared: ComparisonEvaluator.prepare(op, NSExpression(forConstantValue: pattern), options))
            // SQLite may drop the data at once (a non-constant argument); `box` stays alive here.
            sqlite3_set_auxdata(context, 3, Unmanaged.passRetained(box).toOpaque()) { pointer in
                if let pointer { Unmanaged<PreparedPattern>.fromOpaque(pointer).release() }
            }
        }
        do {
            let matched = try ComparisonEvaluator.perform(op, subject, pattern, options, box.prepared)
            sqlite3_result_int(context, matched ? 1 : 0)
        } catch {
            sqlite3_result_error(context, "ocd_match: \(error.localizedDescription)", -1)
        }
    }

    /// The running total of `ocd_sum`, in SQLite's zeroed aggregate memory.
    private struct SumState {
        var started: Int32
        var isReal: Int32
        var integer: Int64
        var real: Double
    }

    static func sumStep(_ context: OpaquePointer?, _ value: OpaquePointer?) {
        let type = sqlite3_value_type(value)
        guard type != SQLITE_NULL,
              let raw = sqlite3_aggregate_context(context, Int32(MemoryLayout<SumState>.stride)) else { return }
        let state = raw.bindMemory(to: SumState.self, capacity: 1)
        if state.pointee.started == 0 { state.pointee = SumState(started: 1, isReal: 0, integer: 0, real: 0) }
        // NumericValue.adding: int + int stays exact unless it overflows; anything else is Double.
        if state.pointee.isReal == 0 && type == SQLITE_INTEGER {
            let addend = sqlite3_value_int64(value)
            let (sum, overflow) = state.pointee.integer.addingReportingOverflow(addend)
            if overflow {
                state.pointee.isReal = 1
                state.pointee.real = Double(state.pointee.integer) + Double(addend)
            } else {
                state.pointee.integer = sum
            }
        } else {
            let total = state.pointee.isReal != 0 ? state.pointee.real : Double(state.pointee.integer)
            state.pointee.isReal = 1
            state.pointee.real = total + sqlite3_value_double(value)
        }
    }

    static func sumFinal(_ context: OpaquePointer?) {
        guard let raw = sqlite3_aggregate_context(context, 0) else { sqlite3_result_int64(context, 0); return }
        let state = raw.bindMemory(to: SumState.self, capacity: 1).pointee
        if state.started == 0 { sqlite3_result_int64(context, 0) }
        else if state.isReal != 0 { sqlite3_result_double(context, state.real) }
        else { sqlite3_result_int64(context, state.integer) }
    }
}

import Foundation
import OpenCoreData

/// `ocd sql-session <store.sqlite> [--busy-timeout <seconds>]`: a diagnostic command, left out
/// of `ocd help`, that plays *another process* on a store file. It reads one SQL statement per
/// line from standard input, runs it on one connection kept open across lines, and answers each
/// line on standard output:
///
/// ```
/// $ ocd sql-session Company.sqlite
/// BEGIN IMMEDIATE
/// ok
/// SELECT Z_PK, ZFIRSTNAME FROM ZEMPLOYEE
/// row	1	Ann
/// ok
/// UPDATE nothing
/// error	SQLite error 1: no such table: nothing (in: UPDATE nothing)
/// ```
///
/// Each answer is zero or more `row` lines (tab-separated values, `NULL` for null) and then
/// `ok`, or one `error` line. Because a transaction stays open between lines, a test can hold
/// the store's write lock for as long as it likes, or commit a change at an exact moment, from a
/// real second process — which is what SQLite's file locking and Core Data's optimistic locking
/// are about. The `sqlite3` shell would do the same but is not installed everywhere CI runs;
/// this needs nothing beyond the package. At end of input the connection closes and SQLite
/// rolls back a transaction still open, as when a process dies.
enum SQLSessionCommand {
    static let usage = "usage: ocd sql-session <store.sqlite> [--busy-timeout <seconds>]   (reads SQL statements, one a line, from standard input)"

    /// Returns 0 at end of input, 1 when the file can't be opened, 2 for wrong arguments.
    static func run(_ arguments: [String]) -> Int32 {
        var path: String?
        var busyTimeout = 10.0
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--busy-timeout", let value = rest.popFirst().flatMap(Double.init) {
                busyTimeout = value
            } else if path == nil, !argument.hasPrefix("--") {
                path = argument
            } else {
                ModelCommand.printError("ocd sql-session: unexpected argument '\(argument)'\n\(usage)")
                return 2
            }
        }
        guard let path else {
            ModelCommand.printError(usage)
            return 2
        }
        let session: SQLiteInspector.Session
        do {
            session = try SQLiteInspector.Session(path: path, busyTimeout: busyTimeout)
        } catch {
            ModelCommand.printError("ocd sql-session: can't open '\(path)': \(error)")
            return 1
        }
        defer { session.close() }
        while let line = readLine() {
            let sql = line.trimmingCharacters(in: .whitespaces)
            guard !sql.isEmpty else { continue }
            var answer = ""
            do {
                for row in try session.run(sql) {
                    answer += "row\t" + row.map { $0 ?? "NULL" }.joined(separator: "\t") + "\n"
                }
                answer += "ok\n"
            } catch {
                answer = "error\t\(String(describing: error).replacingOccurrences(of: "\n", with: " "))\n"
            }
            // Written unbuffered: the other end waits for each answer before its next step.
            FileHandle.standardOutput.write(Data(answer.utf8))
        }
        return 0
    }
}

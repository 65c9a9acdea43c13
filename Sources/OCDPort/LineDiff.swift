/// A unified diff of two texts, line by line, as `diff -u` prints it (what `ocd port --dry-run`
/// shows).
///
/// ```swift
/// LineDiff.unified(old: "a\nb\n", new: "a\nc\n", name: "File.swift")
/// // --- File.swift\n+++ File.swift (ported)\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n
/// ```
///
/// The longest common subsequence of lines decides what is kept; files of a persistence layer
/// are a few hundred lines, so the quadratic table is small.
public enum LineDiff {
    public static func unified(old: String, new: String, name: String, context: Int = 3) -> String {
        let a = lines(old), b = lines(new)
        guard a != b else { return "" }
        // lcs[i][j]: the length of the longest common subsequence of a[i...] and b[j...].
        var lcs = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        enum Edit { case keep(String), remove(String), add(String) }
        var edits: [Edit] = []
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] { edits.append(.keep(a[i])); i += 1; j += 1 }
            else if i < a.count, j == b.count || lcs[i + 1][j] >= lcs[i][j + 1] { edits.append(.remove(a[i])); i += 1 }
            else { edits.append(.add(b[j])); j += 1 }
        }
        // Hunks: runs of changes with `context` kept lines around them.
        var output = "--- \(name)\n+++ \(name) (ported)\n"
        let changed = edits.indices.filter { if case .keep = edits[$0] { return false } else { return true } }
        var start = 0
        while start < changed.count {
            var end = start
            while end + 1 < changed.count, changed[end + 1] - changed[end] <= 2 * context + 1 { end += 1 }
            let from = max(0, changed[start] - context), to = min(edits.count - 1, changed[end] + context)
            // Line numbers at `from` in each file.
            var oldLine = 1, newLine = 1
            for edit in edits[..<from] {
                switch edit {
                case .keep: oldLine += 1; newLine += 1
                case .remove: oldLine += 1
                case .add: newLine += 1
                }
            }
            var body = "", oldCount = 0, newCount = 0
            for edit in edits[from...to] {
                switch edit {
                case .keep(let line): body += " \(line)\n"; oldCount += 1; newCount += 1
                case .remove(let line): body += "-\(line)\n"; oldCount += 1
                case .add(let line): body += "+\(line)\n"; newCount += 1
                }
            }
            output += "@@ -\(oldCount == 0 ? oldLine - 1 : oldLine),\(oldCount) +\(newCount == 0 ? newLine - 1 : newLine),\(newCount) @@\n" + body
            start = end + 1
        }
        return output
    }

    private static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

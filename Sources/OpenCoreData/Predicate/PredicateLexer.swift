import Foundation

/// One token of a predicate format, with the scalar offset where it starts (for error messages).
struct PredicateToken {
    enum Kind: Equatable {
        /// A word: a key, a keyword (`AND`, `BEGINSWITH`, `SELF`... matched case-insensitively
        /// by the parser), or `@count`-style operator names.
        case word(String)
        /// `#word`: always a key, even when it spells a keyword.
        case escapedWord(String)
        /// `name:` or `modulus:by:`: a function selector written in colon form.
        case selector(String)
        case integer(Int)
        case double(Double)
        case string(String)
        case variable(String)
        /// `%@`, `%K`, `%d`, `%lld`, `%f`, `%%`...: the conversion letters after `%`.
        case specifier(String)
        /// `<null>`: how `NSNull` constants print.
        case null
        /// Punctuation and symbolic operators, normalized: `=`→`==`, `<>`→`!=`, `=<`→`<=`, `=>`→`>=`.
        case symbol(String)
        case end
    }

    let kind: Kind
    let position: Int
}

/// Splits a predicate format into tokens. Whitespace-insensitive; keywords are left as words
/// for the parser, which compares them case-insensitively.
///
/// ```swift
/// try PredicateLexer.tokenize("name ==[c] 'x'") // word(name) symbol(==) symbol([) word(c) symbol(]) string(x) end
/// ```
enum PredicateLexer {
    /// Apple's reserved words (upper-cased); a key spelled like one must be written `#word`.
    static let reservedWords: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI", "MATCHES",
        "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO",
        "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY", "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE",
        "UTI-CONFORMS-TO", "UTI-EQUALS",
    ]

    /// Symbols, longest first so `**` wins over `*` and `<=` over `<`.
    private static let symbols: [String] = [
        ":=", "==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||", "**", "<<", ">>",
        "=", "<", ">", "!", "(", ")", "{", "}", "[", "]", ",", ".", "+", "-", "*", "/", "&", "|", "^",
    ]
    private static let normalized: [String: String] = ["=": "==", "<>": "!=", "=<": "<=", "=>": ">="]

    static func tokenize(_ format: String) throws -> [PredicateToken] {
        let s = Array(format.unicodeScalars)
        var tokens: [PredicateToken] = []
        var i = 0

        func fail(_ position: Int, _ problem: String) -> NSError {
            PredicateSyntaxError.make(format: format, position: position, problem: problem)
        }
        func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
            c == "_" || c == "@" || c.properties.isAlphabetic
        }
        func isIdentifierPart(_ c: Unicode.Scalar) -> Bool {
            c == "_" || c == "@" || c.properties.isAlphabetic || ("0"..."9").contains(c)
        }
        func readIdentifier() -> String {
            var word = String.UnicodeScalarView()
            while i < s.count, isIdentifierPart(s[i]) { word.append(s[i]); i += 1 }
            return String(word)
        }
        /// Whether the format has `text` (upper-case ASCII: a symbol, `<NULL>`, a UTI suffix)
        /// at `position`, ASCII letters in any case. Compared scalar by scalar, without making
        /// and upper-casing a `String` per character.
        func matches(_ text: String, at position: Int) -> Bool {
            var k = position
            for expected in text.unicodeScalars {
                guard k < s.count else { return false }
                var value = s[k].value
                if (0x61...0x7A).contains(value) { value -= 0x20 }  // a-z → A-Z
                if value != expected.value { return false }
                k += 1
            }
            return true
        }

        while i < s.count {
            let c = s[i]
            let start = i
            if c.properties.isWhitespace { i += 1; continue }

            if c == "@", !(i + 1 < s.count && s[i + 1].properties.isAlphabetic) {
                throw fail(start, "'@' must start a collection operator such as @count or @sum")
            }
            // Words, keywords, colon-form selectors.
            if isIdentifierStart(c) {
                var word = readIdentifier()
                if word.uppercased() == "UTI" {
                    for suffix in ["-CONFORMS-TO", "-EQUALS"] where matches(suffix, at: i) {
                        i += suffix.unicodeScalars.count
                        word = "UTI" + suffix
                        break
                    }
                }
                if i < s.count, s[i] == ":", !(i + 1 < s.count && s[i + 1] == "=") {
                    // `uppercase:` / `modulus:by:`: keep reading `part:` segments.
                    i += 1
                    var selector = word + ":"
                    while i < s.count, isIdentifierStart(s[i]) {
                        let save = i
                        let part = readIdentifier()
                        if i < s.count, s[i] == ":", !(i + 1 < s.count && s[i + 1] == "=") {
                            selector += part + ":"
                            i += 1
                        } else {
                            i = save
                            break
                        }
                    }
                    tokens.append(PredicateToken(kind: .selector(selector), position: start))
                } else {
                    tokens.append(PredicateToken(kind: .word(word), position: start))
                }
                continue
            }

            if c == "#" {
                i += 1
                guard i < s.count, isIdentifierStart(s[i]) else { throw fail(start, "'#' must be followed by a key name (it escapes reserved words, as in #size)") }
                tokens.append(PredicateToken(kind: .escapedWord(readIdentifier()), position: start))
                continue
            }

            if c == "$" {
                i += 1
                guard i < s.count, isIdentifierStart(s[i]) else { throw fail(start, "'$' must be followed by a variable name, as in $name") }
                tokens.append(PredicateToken(kind: .variable(readIdentifier()), position: start))
                continue
            }

            if ("0"..."9").contains(c) {
                tokens.append(PredicateToken(kind: try readNumber(s, &i, fail), position: start))
                continue
            }

            if c == "\"" || c == "'" {
                tokens.append(PredicateToken(kind: .string(try readString(s, &i, fail)), position: start))
                continue
            }

            if c == "%" {
                i += 1
                var spec = ""
                while i < s.count, "hlqLztj".unicodeScalars.contains(s[i]) { spec.unicodeScalars.append(s[i]); i += 1 }
                guard i < s.count, "@K%diouxXfFeEgGcCsSpaA".unicodeScalars.contains(s[i]) else {
                    throw fail(start, "unknown format specifier; use %@ for objects, %K for key paths, %d/%ld/%f for numbers, %% for a percent sign")
                }
                spec.unicodeScalars.append(s[i])
                i += 1
                tokens.append(PredicateToken(kind: .specifier(spec), position: start))
                continue
            }

            if matches("<NULL>", at: i) {
                i += 6
                tokens.append(PredicateToken(kind: .null, position: start))
                continue
            }

            var matched = false
            for symbol in symbols where matches(symbol, at: i) {
                i += symbol.unicodeScalars.count
                tokens.append(PredicateToken(kind: .symbol(normalized[symbol] ?? symbol), position: start))
                matched = true
                break
            }
            if !matched { throw fail(start, "unexpected character '\(c)'") }
        }
        tokens.append(PredicateToken(kind: .end, position: s.count))
        return tokens
    }

    /// Decimal (`12`, `1.5`, `9.2e-5`), hexadecimal `0x1F`, octal `0o17`, binary `0b101`.
    private static func readNumber(_ s: [Unicode.Scalar], _ i: inout Int, _ fail: (Int, String) -> NSError) throws -> PredicateToken.Kind {
        let start = i
        if s[i] == "0", i + 1 < s.count, let radix = ["x": 16, "X": 16, "o": 8, "O": 8, "b": 2, "B": 2][Character(s[i + 1])] {
            i += 2
            var digits = ""
            while i < s.count, s[i].properties.isASCIIHexDigit || s[i] == "_" {
                if s[i] != "_" { digits.unicodeScalars.append(s[i]) }
                i += 1
            }
            guard !digits.isEmpty else { throw fail(start, "a number prefix 0x/0o/0b must be followed by digits") }
            if let value = Int(digits, radix: radix) { return .integer(value) }
            if let value = UInt64(digits, radix: radix) { return .double(Double(value)) }
            throw fail(start, "'\(digits)' is not a valid base-\(radix) number")
        }
        var text = ""
        var isInteger = true
        while i < s.count, ("0"..."9").contains(s[i]) { text.unicodeScalars.append(s[i]); i += 1 }
        if i + 1 < s.count, s[i] == ".", ("0"..."9").contains(s[i + 1]) {
            isInteger = false
            text += "."
            i += 1
            while i < s.count, ("0"..."9").contains(s[i]) { text.unicodeScalars.append(s[i]); i += 1 }
        }
        if i < s.count, s[i] == "e" || s[i] == "E" {
            var j = i + 1
            if j < s.count, s[j] == "+" || s[j] == "-" { j += 1 }
            if j < s.count, ("0"..."9").contains(s[j]) {
                isInteger = false
                text += String(s[i...j - 1].map(Character.init))
                i = j
                while i < s.count, ("0"..."9").contains(s[i]) { text.unicodeScalars.append(s[i]); i += 1 }
            }
        }
        if i < s.count, s[i].properties.isAlphabetic || s[i] == "_" {
            throw fail(i, "a number cannot run into a word; put a space or an operator between them")
        }
        if isInteger, let value = Int(text) { return .integer(value) }
        guard let value = Double(text) else { throw fail(start, "'\(text)' is not a valid number") }
        return .double(value)
    }

    /// A quoted string with C escapes (`\n \t \r \0 \\ \' \"`, `\ooo`, `\xhh`, `\uhhhh`).
    private static func readString(_ s: [Unicode.Scalar], _ i: inout Int, _ fail: (Int, String) -> NSError) throws -> String {
        let start = i
        let quote = s[i]
        i += 1
        var out = String.UnicodeScalarView()
        while true {
            guard i < s.count else { throw fail(start, "the string starting here is not closed; add a closing \(quote)") }
            let c = s[i]
            i += 1
            if c == quote { return String(out) }
            guard c == "\\" else { out.append(c); continue }
            guard i < s.count else { throw fail(i - 1, "a backslash at the end of the format escapes nothing") }
            let e = s[i]
            i += 1
            switch e {
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "a": out.append("\u{07}")
            case "b": out.append("\u{08}")
            case "f": out.append("\u{0C}")
            case "v": out.append("\u{0B}")
            case "x", "u":
                let maxDigits = e == "x" ? 2 : 4
                var hex = ""
                while hex.count < maxDigits, i < s.count, s[i].properties.isASCIIHexDigit { hex.unicodeScalars.append(s[i]); i += 1 }
                guard !hex.isEmpty, let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) else {
                    throw fail(i, "\\\(e) must be followed by hexadecimal digits naming a valid character")
                }
                out.append(scalar)
            case "0"..."7":
                var octal = String(e)
                while octal.count < 3, i < s.count, ("0"..."7").contains(s[i]) { octal.unicodeScalars.append(s[i]); i += 1 }
                out.append(Unicode.Scalar(UInt8(UInt32(octal, radix: 8)! & 0xFF)))
            default:
                out.append(e) // \\ \' \" and any other escaped character stand for themselves
            }
        }
    }
}

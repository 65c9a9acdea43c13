import Foundation

/// Prints predicates and expressions in Apple's canonical format, the text `predicateFormat`
/// and `description` return.
///
/// ```swift
/// NSPredicate(format: "a = 1 && b beginswith[c] 'x'").predicateFormat // a == 1 AND b BEGINSWITH[c] "x"
/// NSPredicate(format: "(a = 1 || b = 2) and not c = 3").predicateFormat
/// // (a == 1 OR b == 2) AND (NOT c == 3)
/// ```
///
/// Rules: `==` for `=`, strings double-quoted with `\"` and `\\` escaped, booleans `1`/`0`,
/// nil as `nil`, `NSNull` as `<null>`, collections `{a, b}`, dates `CAST(<seconds since
/// 2001>, "NSDate")`, keywords upper-case, reserved words used as keys `#`-escaped, every
/// compound nested in a compound parenthesised, arithmetic parenthesised only where precedence
/// requires. The parser reads all of it back to an equal predicate.
enum PredicateFormatter {
    static func format(_ p: NSComparisonPredicate) -> String {
        var out = ""
        switch p.comparisonPredicateModifier {
        case .any: out += "ANY "
        case .all: out += "ALL "
        case .direct: break
        }
        out += format(p.leftExpression)
        out += " " + operatorName(p.predicateOperatorType) + optionsSuffix(p.options) + " "
        out += format(p.rightExpression)
        return out
    }

    static func format(_ p: NSCompoundPredicate) -> String {
        let parts = p.predicates.map { sub -> String in
            let text = sub.predicateFormat
            return sub.resolved is NSCompoundPredicate ? "(\(text))" : text
        }
        switch p.compoundPredicateType {
        case .and: return parts.isEmpty ? "TRUEPREDICATE" : parts.joined(separator: " AND ")
        case .or: return parts.isEmpty ? "FALSEPREDICATE" : parts.joined(separator: " OR ")
        case .not:
            if p.predicates.count == 1 { return "NOT " + parts[0] }
            return "NOT (" + parts.joined(separator: " AND ") + ")"
        }
    }

    static func operatorName(_ op: NSComparisonPredicate.Operator) -> String {
        switch op {
        case .lessThan: return "<"
        case .lessThanOrEqualTo: return "<="
        case .greaterThan: return ">"
        case .greaterThanOrEqualTo: return ">="
        case .equalTo: return "=="
        case .notEqualTo: return "!="
        case .matches: return "MATCHES"
        case .like: return "LIKE"
        case .beginsWith: return "BEGINSWITH"
        case .endsWith: return "ENDSWITH"
        case .in: return "IN"
        case .contains: return "CONTAINS"
        case .between: return "BETWEEN"
        case .customSelector: return "FUNCTION"
        }
    }

    static func optionsSuffix(_ options: NSComparisonPredicate.Options) -> String {
        var letters = ""
        if options.contains(.caseInsensitive) { letters += "c" }
        if options.contains(.diacriticInsensitive) { letters += "d" }
        if options.contains(.normalized) { letters += "n" }
        if options.contains(.localeSensitive) { letters += "l" }
        return letters.isEmpty ? "" : "[\(letters)]"
    }

    // MARK: Expressions

    /// Infix operators by selector, with their precedence (higher binds tighter).
    static let infix: [String: (symbol: String, precedence: Int)] = [
        "bitwiseOr:with:": ("|", 1), "bitwiseXor:with:": ("^", 2), "bitwiseAnd:with:": ("&", 3),
        "leftshift:by:": ("<<", 4), "rightshift:by:": (">>", 4),
        "add:to:": ("+", 5), "from:subtract:": ("-", 5),
        "multiply:by:": ("*", 6), "divide:by:": ("/", 6), "raise:toPower:": ("**", 7),
    ]
    static let setPrecedence = 0
    static let postfixPrecedence = 10

    /// How tightly `e` binds when printed, to decide on parentheses around it.
    static func precedence(_ e: NSExpression) -> Int {
        switch e.node {
        case .function(let name, nil, let args) where args.count == 2 && infix[name] != nil:
            return infix[name]!.precedence
        case .union, .intersect, .minus, .assignment:
            return setPrecedence
        case .constant(let value):
            // A negative number prints with a leading minus: treat it like a unary expression.
            if let n = NumericValue(value), n.compare(.int(0)) == .orderedAscending { return 8 }
            return postfixPrecedence
        default:
            return postfixPrecedence
        }
    }

    static func format(_ e: NSExpression) -> String {
        switch e.node {
        case .constant(let value):
            return formatConstant(value)
        case .evaluatedObject:
            return "SELF"
        case .variable(let name):
            return "$" + name
        case .keyPath(let operand, let components):
            let path = components.map(escapeKey).joined(separator: ".")
            guard let operand else { return path }
            return wrap(operand, below: postfixPrecedence) + "." + path
        case .function(let name, let target?, let args):
            return "FUNCTION(" + ([format(target), quote(name)] + args.map(format)).joined(separator: ", ") + ")"
        case .function(let name, nil, let args):
            if args.count == 2, let (symbol, prec) = infix[name] {
                let rightAssociative = name == "raise:toPower:"
                let left = wrap(args[0], below: rightAssociative ? prec + 1 : prec)
                let right = wrap(args[1], below: rightAssociative ? prec : prec + 1)
                return "\(left) \(symbol) \(right)"
            }
            if name == "objectFrom:withIndex:", args.count == 2 {
                return wrap(args[0], below: postfixPrecedence) + "[" + format(args[1]) + "]"
            }
            if name == "castObject:toType:", args.count == 2 {
                return "CAST(" + format(args[0]) + ", " + format(args[1]) + ")"
            }
            return name + "(" + args.map(format).joined(separator: ", ") + ")"
        case .aggregate(let items):
            return "{" + items.map(format).joined(separator: ", ") + "}"
        case .union(let l, let r): return setOperation(l, "UNION", r)
        case .intersect(let l, let r): return setOperation(l, "INTERSECT", r)
        case .minus(let l, let r): return setOperation(l, "MINUS", r)
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(\(format(collection)), $\(variable), \(predicate.predicateFormat))"
        case .conditional(let p, let t, let f):
            return "TERNARY(\(p.predicateFormat), \(format(t)), \(format(f)))"
        case .assignment(let name, let value):
            return "$\(name) := \(format(value))"
        case .block(_, let args):
            return "BLOCK(<block>, " + args.map(format).joined(separator: ", ") + ")"
        case .anyKey:
            return "ANYKEY"
        }
    }

    private static func setOperation(_ l: NSExpression, _ keyword: String, _ r: NSExpression) -> String {
        wrap(l, below: setPrecedence) + " " + keyword + " " + wrap(r, below: setPrecedence + 1)
    }

    /// `e` printed, parenthesised when it binds less tightly than `minimum`.
    private static func wrap(_ e: NSExpression, below minimum: Int) -> String {
        precedence(e) < minimum ? "(" + format(e) + ")" : format(e)
    }

    static func formatConstant(_ value: Any?) -> String {
        guard let value = KVCValueKinds.unwrap(value) else { return "nil" }
        if value is NSNull { return "<null>" }
        if let symbol = value as? PredicateIndexSymbol { return symbol.rawValue }
        if let string = KVCValueKinds.string(value) { return quote(string) }
        if let bool = value as? Bool { return bool ? "1" : "0" }
        if let number = NumericValue(value) { return number.description }
        if let date = value as? Date {
            return "CAST(\(NumericValue.format(date.timeIntervalSinceReferenceDate)), \"NSDate\")"
        }
        if let uuid = value as? UUID { return "CAST(\(quote(uuid.uuidString)), \"NSUUID\")" }
        if let url = value as? URL { return "CAST(\(quote(url.absoluteString)), \"NSURL\")" }
        if let data = value as? Data { return "CAST(\(quote(data.base64EncodedString())), \"NSData\")" }
        if let (elements, _) = KVCValueKinds.collection(value) {
            return "{" + elements.map(formatConstant).joined(separator: ", ") + "}"
        }
        return String(describing: value)
    }

    /// A double-quoted string literal the lexer reads back exactly.
    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// A key-path component, `#`-escaped when it is a reserved word, or when it starts with an
    /// `@` that does not start a collection operator (`@`, `@1`, `@_x`): the lexer reads a bare
    /// `@` only before a letter.
    static func escapeKey(_ key: String) -> String {
        if PredicateLexer.reservedWords.contains(key.uppercased()) { return "#" + key }
        let scalars = key.unicodeScalars
        if scalars.first == "@", !(scalars.dropFirst().first?.properties.isAlphabetic ?? false) { return "#" + key }
        return key
    }
}

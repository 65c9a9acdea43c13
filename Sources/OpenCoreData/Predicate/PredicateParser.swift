import Foundation

// Longer than most files (about 600 lines) for a reason: one recursive-descent parser, whose
// grammar reads top to bottom here (entry points, tokens, predicates, expressions, arguments);
// split, each rule would lose sight of the rules it calls.

/// A recursive-descent parser for Apple's predicate format language (grammar in
/// docs/predicates.md), producing `NSPredicate` / `NSExpression` trees.
///
/// ```swift
/// let p = try PredicateParser(format: "ANY tags.name ==[c] %@", arguments: ["swift"]).parsePredicateFormat()
/// ```
///
/// Precedence, tightest first: postfix (`.key`, `[i]`), unary `-`, `**` (right-associative),
/// `* /`, `+ -`, `<< >>`, `&`, `^`, `|`, `UNION INTERSECT MINUS`, comparison, `NOT`, `OR`,
/// `AND` (OR binds tighter than AND, as in GNUstep and Apportable; see
/// DEVIATIONS-predicates.md). Runs of the same logical operator are flattened into one
/// compound (`a AND b AND c` has three subpredicates).
///
/// Nesting is bounded by ``maximumDepth`` so hostile input (10,000 parentheses) throws instead
/// of overflowing the stack; every path is linear in the input (no backtracking).
final class PredicateParser {
    /// Deepest nesting of parentheses, `NOT`s, braces and calls accepted.
    static let maximumDepth = 1000

    private let format: String
    private let tokens: [PredicateToken]
    private var index = 0
    private let arguments: [Any]
    private var argumentIndex = 0
    private var depth = 0

    init(format: String, arguments: [Any]) throws {
        self.format = format
        self.arguments = arguments
        tokens = try PredicateLexer.tokenize(format)
    }

    // MARK: Entry points

    func parsePredicateFormat() throws -> NSPredicate {
        try withEnoughStack {
            let predicate = try $0.parseAndChain()
            try $0.expectEnd()
            try $0.checkTreeDepth(PredicateTreeDepth.of(predicate))
            return predicate
        }
    }

    func parseStandaloneExpression() throws -> NSExpression {
        try withEnoughStack {
            let expression = try $0.parseExpression()
            try $0.expectEnd()
            try $0.checkTreeDepth(PredicateTreeDepth.of(expression))
            return expression
        }
    }

    /// Deepest parsed tree accepted. Evaluating, printing and comparing predicates recurse
    /// once per tree level, on whatever thread the caller is on (512 KiB stacks on secondary
    /// threads), so the tree must stay shallow even when the syntax (parentheses) nests deeper.
    static let maximumTreeDepth = 100

    private func checkTreeDepth(_ depth: Int) throws {
        guard depth <= PredicateParser.maximumTreeDepth else {
            throw PredicateSyntaxError.make(format: format, position: 0, problem: "the predicate nests \(depth) operations deep, more than the \(PredicateParser.maximumTreeDepth) OpenCoreData evaluates safely; flatten it (a AND b AND c rather than a AND (b AND (c ...))) or split it")
        }
    }

    /// Formats with more potential nesting than this parse on a helper thread with a big stack.
    static let inlineNestingBudget = 24

    /// Runs `body` on the current thread when the format cannot nest deeply, else on a helper
    /// thread with a 64 MiB stack. Debug builds use several KiB of stack per nesting level, and
    /// callers may be on 512 KiB secondary threads, so deep formats must not recurse there.
    private func withEnoughStack<T>(_ body: @escaping (PredicateParser) throws -> T) throws -> T {
        var openers = 0
        for token in tokens {
            switch token.kind {
            case .symbol("("), .symbol("{"), .symbol("["), .symbol("!"), .symbol("-"), .symbol("**"), .symbol(":="): openers += 1
            case .word(let w) where w.count == 3 && w.uppercased() == "NOT": openers += 1
            default: break
            }
        }
        if openers <= PredicateParser.inlineNestingBudget { return try body(self) }

        let outcome = ParseOnBigStack(parser: self, body: body)
        let thread = Thread {
            outcome.result = Result { try outcome.body(outcome.parser) }
            outcome.done.signal()
        }
        thread.stackSize = 64 << 20
        thread.start()
        outcome.done.wait()
        return try outcome.result!.get()
    }

    private func expectEnd() throws {
        guard case .end = current.kind else {
            throw error("unexpected \(describe(current)) after a complete \(index == 0 ? "format" : "predicate"); join predicates with AND or OR")
        }
    }

    // MARK: Tokens

    private var current: PredicateToken { tokens[index] }
    private var next: PredicateToken { tokens[min(index + 1, tokens.count - 1)] }

    private func advance() { if index < tokens.count - 1 { index += 1 } }

    private func error(_ problem: String, at token: PredicateToken? = nil) -> NSError {
        PredicateSyntaxError.make(format: format, position: (token ?? current).position, problem: problem)
    }

    private func describe(_ token: PredicateToken) -> String {
        switch token.kind {
        case .word(let w), .escapedWord(let w): return "'\(w)'"
        case .selector(let s): return "'\(s)'"
        case .integer(let n): return "number \(n)"
        case .double(let d): return "number \(d)"
        case .string(let s): return "string \"\(s)\""
        case .variable(let v): return "variable $\(v)"
        case .specifier(let s): return "'%\(s)'"
        case .null: return "'<null>'"
        case .symbol(let s): return "'\(s)'"
        case .end: return "end of format"
        }
    }

    /// Whether the current token is the keyword `keyword` (case-insensitive, not `#`-escaped).
    private func isKeyword(_ keyword: String, _ token: PredicateToken? = nil) -> Bool {
        if case .word(let w) = (token ?? current).kind { return w.uppercased() == keyword }
        return false
    }

    private func isSymbol(_ symbol: String, _ token: PredicateToken? = nil) -> Bool {
        if case .symbol(let s) = (token ?? current).kind { return s == symbol }
        return false
    }

    private func expectSymbol(_ symbol: String, _ context: String) throws {
        guard isSymbol(symbol) else { throw error("expected '\(symbol)' \(context) but found \(describe(current))") }
        advance()
    }

    /// Runs `body` one nesting level deeper, refusing to go past ``maximumDepth``.
    private func nested<T>(_ body: () throws -> T) throws -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= PredicateParser.maximumDepth else {
            throw error("the format nests deeper than \(PredicateParser.maximumDepth) levels (parentheses, NOT, braces or calls); simplify it or build it from NSCompoundPredicate")
        }
        return try body()
    }

    // MARK: Predicates

    /// What a parenthesised group turned out to be: a predicate, or an expression that
    /// continues into a comparison (`(a + 1) * 2 > 3`).
    private enum Group {
        case predicate(NSPredicate)
        case expression(NSExpression)
    }

    func parseAndChain() throws -> NSPredicate {
        guard case .predicate(let p) = try parseAndChain(allowBareExpression: false) else {
            preconditionFailure("unreachable: bare expressions are refused when not allowed")
        }
        return p
    }

    private func parseAndChain(allowBareExpression: Bool) throws -> Group {
        let first = try parseOrChain(allowBareExpression: allowBareExpression)
        guard case .predicate(let firstPredicate) = first else { return first }
        var parts = [firstPredicate]
        while isKeyword("AND") || isSymbol("&&") {
            advance()
            guard case .predicate(let p) = try parseOrChain(allowBareExpression: false) else { preconditionFailure("unreachable") }
            parts.append(p)
        }
        return .predicate(parts.count == 1 ? parts[0] : NSCompoundPredicate(type: .and, subpredicates: flatten(parts, .and)))
    }

    private func parseOrChain(allowBareExpression: Bool) throws -> Group {
        let first = try parseUnaryPredicate(allowBareExpression: allowBareExpression)
        guard case .predicate(let firstPredicate) = first else { return first }
        var parts = [firstPredicate]
        while isKeyword("OR") || isSymbol("||") {
            advance()
            guard case .predicate(let p) = try parseUnaryPredicate(allowBareExpression: false) else { preconditionFailure("unreachable") }
            parts.append(p)
        }
        return .predicate(parts.count == 1 ? parts[0] : NSCompoundPredicate(type: .or, subpredicates: flatten(parts, .or)))
    }

    /// `(a OR b) OR c` is one OR of three, as Apple prints it; only same-type compounds merge.
    private func flatten(_ parts: [NSPredicate], _ type: NSCompoundPredicate.LogicalType) -> [NSPredicate] {
        parts.flatMap { p -> [NSPredicate] in
            if let c = p as? NSCompoundPredicate, c.compoundPredicateType == type, !c.predicates.isEmpty { return c.predicates }
            return [p]
        }
    }

    private func parseUnaryPredicate(allowBareExpression: Bool) throws -> Group {
        if isKeyword("NOT") || isSymbol("!") {
            advance()
            return try nested {
                guard case .predicate(let p) = try parseUnaryPredicate(allowBareExpression: false) else { preconditionFailure("unreachable") }
                return .predicate(NSCompoundPredicate(type: .not, subpredicates: [p]))
            }
        }
        if isKeyword("TRUEPREDICATE") { advance(); return .predicate(NSPredicate(value: true)) }
        if isKeyword("FALSEPREDICATE") { advance(); return .predicate(NSPredicate(value: false)) }
        if isSymbol("(") {
            let open = current
            advance()
            let group = try nested { try parseAndChain(allowBareExpression: true) }
            guard isSymbol(")") else { throw error("expected ')' to close the '(' at position \(open.position) but found \(describe(current))") }
            advance()
            switch group {
            case .predicate(let p):
                return .predicate(p)
            case .expression(let e):
                // `(expr)` was the start of a comparison's left side.
                return try parseComparison(modifier: .direct, negate: false, leftStart: e, allowBareExpression: allowBareExpression)
            }
        }
        for (word, modifier, negate) in [("ANY", NSComparisonPredicate.Modifier.any, false), ("SOME", .any, false), ("ALL", .all, false), ("NONE", .any, true)] where isKeyword(word) {
            advance()
            return try parseComparison(modifier: modifier, negate: negate, leftStart: nil, allowBareExpression: false)
        }
        return try parseComparison(modifier: .direct, negate: false, leftStart: nil, allowBareExpression: allowBareExpression)
    }

    private func parseComparison(modifier: NSComparisonPredicate.Modifier, negate: Bool, leftStart: NSExpression?, allowBareExpression: Bool) throws -> Group {
        let lhs = try parseExpression(startingWith: leftStart)
        if isKeyword("UTI-CONFORMS-TO") || isKeyword("UTI-EQUALS") {
            throw error("UTI-CONFORMS-TO and UTI-EQUALS are not supported: Linux has no Uniform Type Identifier database. Compare the type identifier strings with == or BEGINSWITH instead")
        }
        guard let op = parseOperator() else {
            if allowBareExpression, modifier == .direct { return .expression(lhs) }
            throw error("expected a comparison operator (==, !=, <, >, <=, >=, IN, CONTAINS, BEGINSWITH, ENDSWITH, LIKE, MATCHES, BETWEEN) after \(lhs) but found \(describe(current))")
        }
        let options = try parseOptions()
        let rhs = try parseExpression()
        let comparison = NSComparisonPredicate(leftExpression: lhs, rightExpression: rhs, modifier: modifier, type: op, options: options)
        return .predicate(negate ? NSCompoundPredicate(type: .not, subpredicates: [comparison]) : comparison)
    }

    private func parseOperator() -> NSComparisonPredicate.Operator? {
        let op: NSComparisonPredicate.Operator?
        switch current.kind {
        case .symbol(let s):
            op = ["==": .equalTo, "!=": .notEqualTo, "<": .lessThan, ">": .greaterThan, "<=": .lessThanOrEqualTo, ">=": .greaterThanOrEqualTo][s]
        case .word(let w):
            op = ["BETWEEN": .between, "CONTAINS": .contains, "IN": .in, "BEGINSWITH": .beginsWith, "ENDSWITH": .endsWith,
                  "LIKE": .like, "MATCHES": .matches][w.uppercased()]
        default:
            op = nil
        }
        if op != nil { advance() }
        return op
    }

    /// `[c]`, `[d]`, `[cd]`, `[n]`, `[l]` after an operator.
    private func parseOptions() throws -> NSComparisonPredicate.Options {
        guard isSymbol("["), case .word(let letters) = next.kind else { return [] }
        var options: NSComparisonPredicate.Options = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n": options.insert(.normalized)
            case "l": options.insert(.localeSensitive)
            default: throw error("unknown comparison option '\(letter)'; use [c] (case-insensitive), [d] (diacritic-insensitive), [cd], [n] or [l]", at: next)
            }
        }
        advance()
        advance()
        try expectSymbol("]", "to close the comparison options")
        return options
    }

    // MARK: Expressions

    /// Binary operators by token: (selector or set operator, precedence, right-associative).
    private func binaryOperator() -> (name: String, precedence: Int, rightAssociative: Bool)? {
        switch current.kind {
        case .symbol(let s):
            switch s {
            case "|": return ("bitwiseOr:with:", 1, false)
            case "^": return ("bitwiseXor:with:", 2, false)
            case "&": return ("bitwiseAnd:with:", 3, false)
            case "<<": return ("leftshift:by:", 4, false)
            case ">>": return ("rightshift:by:", 4, false)
            case "+": return ("add:to:", 5, false)
            case "-": return ("from:subtract:", 5, false)
            case "*": return ("multiply:by:", 6, false)
            case "/": return ("divide:by:", 6, false)
            case "**": return ("raise:toPower:", 7, true)
            default: return nil
            }
        case .word(let w):
            switch w.uppercased() {
            case "UNION", "INTERSECT", "MINUS": return (w.uppercased(), 0, false)
            default: return nil
            }
        default:
            return nil
        }
    }

    func parseExpression(startingWith start: NSExpression? = nil) throws -> NSExpression {
        try nested { try parseBinary(minimumPrecedence: 0, startingWith: start) }
    }

    /// Precedence climbing: one stack frame per precedence step, not per grammar level.
    private func parseBinary(minimumPrecedence: Int, startingWith start: NSExpression?) throws -> NSExpression {
        var left = try parseUnaryExpression(startingWith: start)
        while let op = binaryOperator(), op.precedence >= minimumPrecedence {
            advance()
            let right = try nested {
                try parseBinary(minimumPrecedence: op.rightAssociative ? op.precedence : op.precedence + 1, startingWith: nil)
            }
            switch op.name {
            case "UNION": left = NSExpression(node: .union(left, right))
            case "INTERSECT": left = NSExpression(node: .intersect(left, right))
            case "MINUS": left = NSExpression(node: .minus(left, right))
            default: left = NSExpression(node: .function(name: op.name, target: nil, arguments: [left, right]))
            }
        }
        return left
    }

    private func parseUnaryExpression(startingWith start: NSExpression?) throws -> NSExpression {
        if let start { return try parsePostfix(start) }
        if isSymbol("-") {
            advance()
            let operand = try nested { try parseUnaryExpression(startingWith: nil) }
            // Fold `-5` into a constant, so it prints and compares as the number -5.
            if case .constant(let value) = operand.node, let n = NumericValue(value), !(value is Bool) {
                return NSExpression(forConstantValue: n.negated().anyValue)
            }
            return NSExpression(node: .function(name: "from:subtract:", target: nil, arguments: [NSExpression(forConstantValue: 0), operand]))
        }
        return try parsePostfix(parsePrimary())
    }

    private func parsePostfix(_ base: NSExpression) throws -> NSExpression {
        var e = base
        while true {
            if isSymbol(".") {
                advance()
                let keys: [String]
                switch current.kind {
                case .word(let w), .escapedWord(let w):
                    keys = [w]
                    advance()
                case .specifier(let spec) where spec.last == "K":
                    // `$FETCH_SOURCE.%K`: the argument's key path continues the one before the dot.
                    let token = current
                    advance()
                    guard case .keyPath(nil, let components) = try formatArgument(spec, token).node else {
                        throw error("%K after '.' needs a key path, not SELF", at: token)
                    }
                    keys = components
                default: throw error("expected a key after '.' but found \(describe(current))")
                }
                switch e.node {
                case .keyPath(let operand, let components): e = NSExpression(node: .keyPath(operand: operand, components: components + keys))
                case .evaluatedObject: e = NSExpression(node: .keyPath(operand: nil, components: keys))
                default: e = NSExpression(node: .keyPath(operand: e, components: keys))
                }
            } else if isSymbol("[") {
                advance()
                let indexExpression: NSExpression
                if let symbol = ["FIRST": PredicateIndexSymbol.first, "LAST": .last, "SIZE": .size].first(where: { isKeyword($0.key) })?.value {
                    advance()
                    indexExpression = NSExpression(forConstantValue: symbol)
                } else {
                    indexExpression = try parseExpression()
                }
                try expectSymbol("]", "to close the index")
                e = NSExpression(node: .function(name: "objectFrom:withIndex:", target: nil, arguments: [e, indexExpression]))
            } else {
                return e
            }
        }
    }

    private func parsePrimary() throws -> NSExpression {
        let token = current
        switch token.kind {
        case .integer(let n):
            advance()
            return NSExpression(forConstantValue: n)
        case .double(let d):
            advance()
            return NSExpression(forConstantValue: d)
        case .string(let s):
            advance()
            return NSExpression(forConstantValue: s)
        case .null:
            advance()
            return NSExpression(forConstantValue: NSNull())
        case .variable(let name):
            advance()
            if isSymbol(":=") {
                advance()
                let value = try parseExpression()
                return NSExpression(node: .assignment(variable: name, value: value))
            }
            return NSExpression(forVariable: name)
        case .specifier(let spec):
            advance()
            return try formatArgument(spec, token)
        case .escapedWord(let w):
            advance()
            return NSExpression(node: .keyPath(operand: nil, components: [w]))
        case .selector(let name):
            advance()
            guard let arity = ExpressionFunctions.arity[name] else {
                throw error("unknown function '\(name)'; known functions: \(ExpressionFunctions.arity.keys.sorted().joined(separator: " "))", at: token)
            }
            let args = try parseArgumentList(for: name)
            guard args.count == arity else { throw error("function '\(name)' takes \(arity) argument(s) but was given \(args.count)", at: token) }
            return NSExpression(node: .function(name: name, target: nil, arguments: args))
        case .symbol("{"):
            advance()
            return try nested {
                var items: [NSExpression] = []
                if !isSymbol("}") {
                    repeat {
                        if !items.isEmpty { advance() }
                        items.append(try parseExpression())
                    } while isSymbol(",")
                }
                try expectSymbol("}", "to close the collection")
                return NSExpression(node: .aggregate(items))
            }
        case .symbol("("):
            advance()
            let e = try parseExpression()
            try expectSymbol(")", "to close the parenthesised expression")
            return e
        case .word(let w):
            return try parseWord(w, token)
        default:
            throw error("expected an expression (a key path, a value, %@, $variable or a function) but found \(describe(token))")
        }
    }

    private func parseWord(_ word: String, _ token: PredicateToken) throws -> NSExpression {
        let upper = word.uppercased()
        advance()
        switch upper {
        case "NULL", "NIL": return NSExpression(forConstantValue: nil)
        case "TRUE", "YES": return NSExpression(forConstantValue: true)
        case "FALSE", "NO": return NSExpression(forConstantValue: false)
        case "SELF": return NSExpression.expressionForEvaluatedObject()
        case "ANYKEY": return NSExpression.expressionForAnyKey()
        case "SUBQUERY" where isSymbol("("):
            advance()
            return try nested {
                let collection = try parseExpression()
                try expectSymbol(",", "after the SUBQUERY collection")
                guard case .variable(let variable) = current.kind else {
                    throw error("SUBQUERY's second argument must be an iterator variable such as $x, not \(describe(current))")
                }
                advance()
                try expectSymbol(",", "after the SUBQUERY variable")
                let predicate = try parseAndChain()
                try expectSymbol(")", "to close SUBQUERY(")
                return NSExpression(forSubquery: collection, usingIteratorVariable: variable, predicate: predicate)
            }
        case "TERNARY" where isSymbol("("):
            advance()
            return try nested {
                let predicate = try parseAndChain()
                try expectSymbol(",", "after the TERNARY condition")
                let t = try parseExpression()
                try expectSymbol(",", "after the TERNARY true value")
                let f = try parseExpression()
                try expectSymbol(")", "to close TERNARY(")
                return NSExpression(forConditional: predicate, trueExpression: t, falseExpression: f)
            }
        case "CAST" where isSymbol("("):
            let args = try parseArgumentList(for: "CAST")
            guard args.count == 2 else { throw error("CAST takes 2 arguments, a value and a class name: CAST(x, 'NSDate')", at: token) }
            // Fold casts of constants (how dates, UUIDs, URLs and data print) into constants.
            if case .constant(let value) = args[0].node, case .constant(let typeName) = args[1].node, let type = KVCValueKinds.string(typeName),
               ["NSDate", "NSUUID", "NSURL", "NSData", "NSDecimalNumber"].contains(type),
               let folded = try? ExpressionFunctions.cast(value, to: type) {
                return NSExpression(forConstantValue: folded)
            }
            return NSExpression(node: .function(name: "castObject:toType:", target: nil, arguments: args))
        case "FUNCTION" where isSymbol("("):
            let args = try parseArgumentList(for: "FUNCTION")
            guard args.count >= 2, case .constant(let selector) = args[1].node, let name = KVCValueKinds.string(selector) else {
                throw error("FUNCTION needs a receiver and a selector string: FUNCTION(receiver, 'selectorName:', arguments...)", at: token)
            }
            return NSExpression(node: .function(name: name, target: args[0], arguments: Array(args.dropFirst(2))))
        default:
            break
        }
        if isSymbol("(") {
            guard let selector = ExpressionFunctions.formatNames[word.lowercased()] else {
                throw error("unknown function '\(word)'; known functions: \(ExpressionFunctions.formatNames.keys.sorted().joined(separator: " "))", at: token)
            }
            let args = try parseArgumentList(for: word)
            let arity = ExpressionFunctions.arity[selector] ?? 0
            guard args.count == arity else { throw error("function '\(word)' takes \(arity) argument(s) but was given \(args.count)", at: token) }
            return NSExpression(node: .function(name: selector, target: nil, arguments: args))
        }
        if PredicateLexer.reservedWords.contains(upper) {
            throw error("expected an expression but found the keyword '\(word)'; write #\(word) to use it as a key", at: token)
        }
        return NSExpression(node: .keyPath(operand: nil, components: [word]))
    }

    private func parseArgumentList(for name: String) throws -> [NSExpression] {
        try expectSymbol("(", "after \(name)")
        return try nested {
            var args: [NSExpression] = []
            if !isSymbol(")") {
                repeat {
                    if !args.isEmpty { advance() }
                    args.append(try parseExpression())
                } while isSymbol(",")
            }
            try expectSymbol(")", "to close \(name)(")
            return args
        }
    }

    // MARK: Format arguments

    private func formatArgument(_ spec: String, _ token: PredicateToken) throws -> NSExpression {
        if spec == "%" { return NSExpression(forConstantValue: "%") }
        guard argumentIndex < arguments.count else {
            throw error("the format has more % specifiers than the \(arguments.count) argument(s) given", at: token)
        }
        let argument = arguments[argumentIndex]
        argumentIndex += 1
        let value = KVCValueKinds.unwrap(argument)
        let conversion = spec.last!
        switch conversion {
        case "@":
            if let expression = value as? NSExpression { return expression }
            return NSExpression(forConstantValue: value)
        case "K":
            guard let keyPath = KVCValueKinds.string(value) else {
                throw error("%K needs a key path string, but argument \(argumentIndex) is \(String(describing: value ?? "nil"))", at: token)
            }
            if keyPath == "SELF" || keyPath == "self" { return .expressionForEvaluatedObject() }
            return NSExpression(forKeyPath: keyPath)
        case "s", "S":
            guard let string = KVCValueKinds.string(value) else {
                throw error("%\(spec) needs a string, but argument \(argumentIndex) is \(String(describing: value ?? "nil")); use %@ for objects", at: token)
            }
            return NSExpression(forConstantValue: string)
        case "c", "C":
            if let string = KVCValueKinds.string(value) { return NSExpression(forConstantValue: string) }
            if let n = NumericValue(value), let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: n.intValue)) {
                return NSExpression(forConstantValue: String(Character(scalar)))
            }
            throw error("%\(spec) needs a character, but argument \(argumentIndex) is \(String(describing: value ?? "nil"))", at: token)
        case "p":
            return NSExpression(forConstantValue: value)
        default:
            guard let number = NumericValue(value) else {
                throw error("%\(spec) needs a number, but argument \(argumentIndex) is \(String(describing: value ?? "nil")); use %@ for objects and %K for key paths", at: token)
            }
            if "fFeEgGaA".contains(conversion) { return NSExpression(forConstantValue: number.doubleValue) }
            if case .double = number { return NSExpression(forConstantValue: number.intValue) }
            return NSExpression(forConstantValue: number.anyValue)
        }
    }
}

/// Carries one parse to a helper thread and its result back.
// @unchecked Sendable: `result` is written by the helper thread before it signals `done` and read
// by the waiting thread only after `done`; nothing else touches the parser meanwhile.
private final class ParseOnBigStack<T>: @unchecked Sendable {
    var result: Result<T, Error>?
    let parser: PredicateParser
    let body: (PredicateParser) throws -> T
    let done = DispatchSemaphore(value: 0)

    init(parser: PredicateParser, body: @escaping (PredicateParser) throws -> T) {
        self.parser = parser
        self.body = body
    }
}

/// How deep a predicate or expression tree is (1 for a leaf).
enum PredicateTreeDepth {
    static func of(_ p: NSPredicate) -> Int {
        switch p {
        case let c as NSComparisonPredicate: return 1 + max(of(c.leftExpression), of(c.rightExpression))
        case let c as NSCompoundPredicate: return 1 + (c.predicates.map(of).max() ?? 0)
        default: return 1
        }
    }

    static func of(_ e: NSExpression) -> Int {
        let children: [Int]
        switch e.node {
        case .constant, .evaluatedObject, .variable, .anyKey: return 1
        case .keyPath(let operand, _): children = [operand.map(of) ?? 0]
        case .function(_, let target, let args): children = [target.map(of) ?? 0] + args.map(of)
        case .aggregate(let items): children = items.map(of)
        case .union(let l, let r), .intersect(let l, let r), .minus(let l, let r): children = [of(l), of(r)]
        case .subquery(let c, _, let p): children = [of(c), of(p)]
        case .conditional(let p, let t, let f): children = [of(p), of(t), of(f)]
        case .assignment(_, let v): children = [of(v)]
        case .block(_, let args): children = args.map(of)
        }
        return 1 + (children.max() ?? 0)
    }
}

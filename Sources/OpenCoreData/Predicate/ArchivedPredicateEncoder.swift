import Foundation

/// Writes `NSPredicate`s, `NSExpression`s and `NSSortDescriptor`s as Apple's Foundation archives
/// them (the classes, `NSExpressionType` numbers and keys ``ArchivedPredicateDecoder`` reads), into
/// a ``KeyedArchiveWriter``: the predicates of a compiled model.
///
/// ```swift
/// let writer = KeyedArchiveWriter()
/// let value = try ArchivedPredicateEncoder(writer).predicate(NSPredicate(format: "age >= 18"))
/// ```
///
/// Block predicates and expressions, assignments (`$x := …`) and custom selectors have no
/// archived form in Apple's framework either: they are refused with ``ArchivedPredicateDecoder/Failure``.
struct ArchivedPredicateEncoder {
    typealias Value = KeyedArchiveWriter.Value
    let writer: KeyedArchiveWriter

    init(_ writer: KeyedArchiveWriter) { self.writer = writer }

    // MARK: Predicates

    func predicate(_ predicate: NSPredicate) throws -> Value {
        let p = predicate.resolved
        switch p {
        case let c as NSComparisonPredicate:
            return writer.object("NSComparisonPredicate", superclasses: ["NSPredicate"], [
                "NSLeftExpression": try expression(c.leftExpression),
                "NSRightExpression": try expression(c.rightExpression),
                "NSPredicateOperator": try comparisonOperator(c),
            ])
        case let c as NSCompoundPredicate:
            return writer.object("NSCompoundPredicate", superclasses: ["NSPredicate"], [
                "NSCompoundPredicateType": writer.integer(Int(c.compoundPredicateType.rawValue)),
                "NSSubpredicates": writer.array(try c.predicates.map { try self.predicate($0) }),
            ])
        default:
            guard case .value(let value) = p.kind else {
                throw ArchivedPredicateDecoder.Failure("a block predicate, which has no archived form")
            }
            return writer.object(value ? "NSTruePredicate" : "NSFalsePredicate", superclasses: ["NSPredicate"], [:])
        }
    }

    /// The operator object: Foundation's class for each operator type, with its keys.
    private func comparisonOperator(_ c: NSComparisonPredicate) throws -> Value {
        let type = c.predicateOperatorType
        var fields: [String: Value] = ["NSOperatorType": writer.integer(Int(type.rawValue)),
                                       "NSModifier": writer.integer(Int(c.comparisonPredicateModifier.rawValue))]
        let options = writer.integer(Int(c.options.rawValue))
        let className: String
        switch type {
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            className = "NSComparisonPredicateOperator"
            fields["NSVariant"] = writer.integer(Int(type.rawValue))
            fields["NSOptions"] = options
        case .equalTo, .notEqualTo:
            className = "NSEqualityPredicateOperator"
            fields["NSNegate"] = writer.bool(type == .notEqualTo)
            fields["NSOptions"] = options
        case .matches, .like:
            className = type == .like ? "NSLikePredicateOperator" : "NSMatchingPredicateOperator"
            fields["NSFlags"] = options
        case .beginsWith, .endsWith:
            className = "NSSubstringPredicateOperator"
            fields["NSPosition"] = writer.integer(type == .beginsWith ? 0 : 1)
            fields["NSFlags"] = options
        case .in, .contains:
            className = "NSInPredicateOperator"
            fields["NSFlags"] = options
        case .between:
            className = "NSBetweenPredicateOperator"
        default:
            throw ArchivedPredicateDecoder.Failure("a comparison with a custom selector, which Linux has no runtime to call")
        }
        return writer.object(className, superclasses: ["NSPredicateOperator"], fields)
    }

    // MARK: Expressions

    private func typed(_ className: String, _ type: Int, _ fields: [String: Value]) -> Value {
        writer.object(className, superclasses: ["NSExpression"], fields.merging(["NSExpressionType": writer.integer(type)]) { a, _ in a })
    }

    func expression(_ expression: NSExpression) throws -> Value {
        switch expression.node {
        case .constant(let value):
            guard let value else { return typed("NSConstantValueExpression", 0, ["NSConstantValue": writer.null]) }
            guard let archived = writer.plainValue(value) else {
                throw ArchivedPredicateDecoder.Failure("a constant of type \(type(of: value)), which has no archived form here")
            }
            return typed("NSConstantValueExpression", 0, ["NSConstantValue": archived])
        case .evaluatedObject:
            return typed("NSSelfExpression", 1, [:])
        case .variable(let name):
            return typed("NSVariableExpression", 2, ["NSVariable": writer.string(name)])
        case .keyPath(let operand, let components):
            // As `expressionForKeyPath:` builds it: the whole path in one specifier.
            let path = components.joined(separator: ".")
            let specifier = typed("NSKeyPathSpecifierExpression", 10, ["NSKeyPath": writer.string(path)])
            return writer.object("NSKeyPathExpression", superclasses: ["NSFunctionExpression", "NSExpression"], [
                "NSExpressionType": writer.integer(operand == nil ? 3 : 4),
                "NSOperand": try operand.map(self.expression) ?? typed("NSSelfExpression", 1, [:]),
                "NSSelectorName": writer.string(components.count == 1 ? "valueForKey:" : "valueForKeyPath:"),
                "NSArguments": writer.array([specifier]),
            ])
        case .function(let name, let target, let arguments):
            // A built-in function's target is the class _NSPredicateUtilities, archived by name.
            let operand = try target.map(self.expression)
                ?? typed("NSConstantValueExpression", 0, ["NSConstantValueClassName": writer.string("_NSPredicateUtilities")])
            return typed("NSFunctionExpression", 4, ["NSOperand": operand, "NSSelectorName": writer.string(name),
                                                     "NSArguments": writer.array(try arguments.map(self.expression))])
        case .union(let left, let right), .intersect(let left, let right), .minus(let left, let right):
            return typed("NSSetExpression", Int(expression.expressionType.rawValue),
                         ["NSLeftExpression": try self.expression(left), "NSRightExpression": try self.expression(right)])
        case .subquery(let collection, let variable, let predicate):
            return typed("NSSubqueryExpression", 13, ["NSExpression": try self.expression(collection), "NSVariable": writer.string(variable),
                                                      "NSSubpredicate": try self.predicate(predicate)])
        case .aggregate(let elements):
            return typed("NSAggregateExpression", 14, ["NSCollection": writer.array(try elements.map(self.expression))])
        case .anyKey:
            return typed("NSAnyKeyExpression", 15, [:])
        case .conditional(let predicate, let whenTrue, let whenFalse):
            return typed("NSTernaryExpression", 20, ["NSPredicate": try self.predicate(predicate),
                                                     "NSTrueExpression": try self.expression(whenTrue), "NSFalseExpression": try self.expression(whenFalse)])
        case .assignment:
            throw ArchivedPredicateDecoder.Failure("an assignment ($x := …), which has no archived form")
        case .block:
            throw ArchivedPredicateDecoder.Failure("a block expression, which has no archived form")
        }
    }

    // MARK: Sort descriptors

    func sortDescriptor(_ descriptor: NSSortDescriptor) throws -> Value {
        guard descriptor.comparator == nil else {
            throw ArchivedPredicateDecoder.Failure("a sort descriptor on '\(descriptor.key ?? "?")' with a comparator block, which has no archived form")
        }
        var fields: [String: Value] = ["NSAscending": writer.bool(descriptor.ascending), "NSReverseNullOrder": writer.bool(false),
                                       "NSSelector": writer.string(descriptor.selector.map { "\($0)" } ?? "compare:")]
        if let key = descriptor.key { fields["NSKey"] = writer.string(key) }
        return writer.object("NSSortDescriptor", fields)
    }
}

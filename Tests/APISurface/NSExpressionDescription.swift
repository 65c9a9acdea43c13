import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsexpressiondescription (iOS 18 / macOS 15 SDK),
// cross-checked against the generated Swift interface of CoreData/NSExpressionDescription.h and
// onestack.dev's iOS reference.

/// api: NSExpressionDescription.init()
func api_NSExpressionDescription_init() {
    let description: NSExpressionDescription = NSExpressionDescription()
    _ = description
}

/// api: NSExpressionDescription.expression
func api_NSExpressionDescription_expression(_ description: NSExpressionDescription) {
    let expression: NSExpression? = description.expression
    description.expression = expression
    description.expression = nil
}

/// api: NSExpressionDescription.resultType
func api_NSExpressionDescription_resultType(_ description: NSExpressionDescription) {
    let type: NSAttributeDescription.AttributeType = description.resultType
    description.resultType = type
    description.resultType = .integer64
}

/// api: NSExpressionDescription.expressionResultType
func api_NSExpressionDescription_expressionResultType(_ description: NSExpressionDescription) {
    // Deprecated in favor of `resultType`.
    let type: NSAttributeType = description.expressionResultType
    description.expressionResultType = type
    description.expressionResultType = .integer64AttributeType
}

import OpenCoreData

// Sources: developer.apple.com/documentation/coredata/nsfetchrequestexpression
// (`class NSFetchRequestExpression : NSExpression`, iOS 18 / macOS 15 SDK), cross-checked against a
// second copy of Apple's reference pages.

/// api: NSFetchRequestExpression (inherits NSExpression)
func api_NSFetchRequestExpression_superclass(_ expression: NSFetchRequestExpression) {
    let _: NSExpression = expression
}

/// api: NSFetchRequestExpression.expression(forFetch:context:countOnly:)
func api_NSFetchRequestExpression_expression_forFetch_context_countOnly(_ fetch: NSExpression, _ context: NSExpression) {
    let _: NSExpression = NSFetchRequestExpression.expression(forFetch: fetch, context: context, countOnly: false)
    let _: NSExpression = NSFetchRequestExpression.expression(forFetch: fetch, context: context, countOnly: true)
}

/// api: NSFetchRequestExpression.requestExpression
func api_NSFetchRequestExpression_requestExpression(_ expression: NSFetchRequestExpression) {
    let _: NSExpression = expression.requestExpression
}

/// api: NSFetchRequestExpression.contextExpression
func api_NSFetchRequestExpression_contextExpression(_ expression: NSFetchRequestExpression) {
    let _: NSExpression = expression.contextExpression
}

/// api: NSFetchRequestExpression.isCountOnlyRequest
func api_NSFetchRequestExpression_isCountOnlyRequest(_ expression: NSFetchRequestExpression) {
    let _: Bool = expression.isCountOnlyRequest
}

/// api: NSFetchRequestExpressionType
func api_NSFetchRequestExpression_NSFetchRequestExpressionType() {
    let _: NSExpression.ExpressionType = NSFetchRequestExpressionType
}

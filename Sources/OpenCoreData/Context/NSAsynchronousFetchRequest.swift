import Foundation

/// The completion block of an asynchronous fetch, as the request's `completionBlock` property
/// gives it.
public typealias NSPersistentStoreAsynchronousFetchResultCompletionBlock = (NSAsynchronousFetchResult<any NSFetchRequestResult>) -> Void

/// A fetch request run after `execute(_:)` returns, whose results arrive in a completion block
/// on the context's queue, with a `Progress` to watch or cancel.
///
/// ```swift
/// let request = NSFetchRequest<Employee>(entityName: "Employee")
/// request.sortDescriptors = [NSSortDescriptor(key: "lastName", ascending: true)]
/// let asynchronous = NSAsynchronousFetchRequest(fetchRequest: request) { result in
///     guard let employees = result.finalResult else { return print(result.operationError!) }
///     show(employees)                      // on the context's queue
/// }
/// let running = try context.execute(asynchronous) as! NSAsynchronousFetchResult<Employee>
/// running.progress?.totalUnitCount        // the estimate, or the count once known
/// running.cancel()                        // the block then gets NSUserCancelledError
/// ```
open class NSAsynchronousFetchRequest<ResultType>: NSPersistentStoreRequest, @unchecked Sendable {
    // @unchecked Sendable: a request is configured on one thread and then only read.

    private let request: NSFetchRequest<ResultType>
    private let completion: ((NSAsynchronousFetchResult<ResultType>) -> Void)?

    /// A request that runs `fetchRequest` and calls `completionBlock` with its result.
    public init(fetchRequest request: NSFetchRequest<ResultType>, completionBlock blk: ((NSAsynchronousFetchResult<ResultType>) -> Void)? = nil) {
        self.request = request
        completion = blk
        super.init()
        affectedStores = request.affectedStores
    }

    /// The fetch request this request runs.
    open var fetchRequest: NSFetchRequest<ResultType> { request }

    /// The completion block, taking the result as `NSAsynchronousFetchResult<NSFetchRequestResult>`
    /// (Apple's Objective-C type); the block given to the initializer receives the typed result.
    open var completionBlock: NSPersistentStoreAsynchronousFetchResultCompletionBlock? {
        guard let completion else { return nil }
        return { erased in completion(erased.typed(as: ResultType.self)) }
    }

    /// How many results the fetch is expected to return: the progress's total until the fetch
    /// knows the real count. 0 (the default) means unknown.
    open var estimatedResultCount: Int = 0

    open override var requestType: NSPersistentStoreRequestType { .fetchRequestType }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSAsynchronousFetchRequest(fetchRequest: request.copyRequest(), completionBlock: completion)
        copy.estimatedResultCount = estimatedResultCount
        copy.affectedStores = affectedStores
        return copy
    }
}

/// The result of an asynchronous request: its context, its progress, and its error once it
/// has failed or was cancelled.
open class NSPersistentStoreAsynchronousResult: NSPersistentStoreResult, @unchecked Sendable {
    // @unchecked Sendable: written on the context's queue; `cancel()` only cancels the progress,
    // which is thread-safe.

    /// The context the request was executed in, where its completion block runs.
    open var managedObjectContext: NSManagedObjectContext { context }
    /// Why the request failed: the fetch's error, or `NSUserCancelledError` after ``cancel()``.
    open var operationError: (any Error)? { error }
    /// The request's progress: the total is the estimate (or 1 when none was given) until the
    /// count is known, completed when the results are in. Cancelling it cancels the request.
    open var progress: Progress? { progressObject }

    let context: NSManagedObjectContext
    var error: (any Error)?
    let progressObject: Progress

    init(context: NSManagedObjectContext, progress: Progress) {
        self.context = context
        progressObject = progress
        super.init()
    }

    /// Cancels the request if it has not delivered its results yet: its completion block gets
    /// the result with `NSUserCancelledError` and no results.
    open func cancel() {
        progressObject.cancel()
    }
}

/// The result of an ``NSAsynchronousFetchRequest``: `finalResult` once the fetch is done.
open class NSAsynchronousFetchResult<ResultType>: NSPersistentStoreAsynchronousResult, @unchecked Sendable {
    private let request: NSAsynchronousFetchRequest<ResultType>
    private var results: [ResultType]?

    init(request: NSAsynchronousFetchRequest<ResultType>, context: NSManagedObjectContext, progress: Progress) {
        self.request = request
        super.init(context: context, progress: progress)
    }

    /// The request that was executed.
    open var fetchRequest: NSAsynchronousFetchRequest<ResultType> { request }
    /// The fetched objects; nil until the fetch is done, and after an error or a cancellation.
    open var finalResult: [ResultType]? { results }

    func finish(with results: [ResultType]?, error: (any Error)?) {
        self.results = results
        self.error = error
    }

    /// This result with another type parameter: the same context, progress, error and results.
    func typed<T>(as _: T.Type) -> NSAsynchronousFetchResult<T> {
        if let same = self as? NSAsynchronousFetchResult<T> { return same }
        let typedRequest = NSAsynchronousFetchRequest<T>(fetchRequest: request.fetchRequest.copyRequest(as: T.self))
        let typed = NSAsynchronousFetchResult<T>(request: typedRequest, context: context, progress: progressObject)
        typed.finish(with: results?.compactMap { $0 as? T }, error: error)
        return typed
    }
}

/// An asynchronous request of any result type, as `execute(_:)` starts it.
protocol AsynchronousFetchStarting {
    func start(in context: NSManagedObjectContext) -> NSPersistentStoreAsynchronousResult
}

extension NSAsynchronousFetchRequest: AsynchronousFetchStarting {
    /// Returns the running result at once; the fetch runs in a block enqueued on the context's
    /// queue, which then calls the completion block.
    func start(in context: NSManagedObjectContext) -> NSPersistentStoreAsynchronousResult {
        // Progress(totalUnitCount:) joins the caller's current progress, if any, as Apple's does.
        let progress = Progress(totalUnitCount: Int64(max(estimatedResultCount, 1)))
        progress.isCancellable = true
        let result = NSAsynchronousFetchResult(request: self, context: context, progress: progress)
        let box = UncheckedSendableBox(result)
        context.perform {
            let result = box.value
            func cancelled(_ when: String) -> NSError {
                CoreDataError.make(NSUserCancelledError, "The asynchronous fetch was cancelled \(when).")
            }
            do {
                if result.progressObject.isCancelled { throw cancelled("before it ran") }
                let objects = try context.fetch(self.request)
                if result.progressObject.isCancelled { throw cancelled("before it delivered its results") }
                result.progressObject.totalUnitCount = Int64(objects.count)
                result.progressObject.completedUnitCount = Int64(objects.count)
                result.finish(with: objects, error: nil)
            } catch {
                result.finish(with: nil, error: error)
            }
            self.completion?(result)
        }
        return result
    }
}

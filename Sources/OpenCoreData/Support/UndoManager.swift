// Longer than most files (about 660 lines) for a reason: `UndoManager` is an `open` class whose
// `open` members subclasses override, and Swift on Linux cannot override members declared in
// extensions, so they all live in the class body.

/// A general-purpose recorder of operations that undo and redo changes.
///
/// swift-corelibs-foundation ships no `UndoManager`; this class provides
/// Apple's API and semantics so that managed object contexts (and your own
/// code) can offer undo and redo on Linux.
///
/// ```swift
/// final class Document {
///     let undoManager = UndoManager()
///     var title = "Untitled" {
///         didSet {
///             // The handler restores the old value through the setter, so
///             // undoing registers the inverse operation: that is redo.
///             undoManager.registerUndo(withTarget: self) { [old = oldValue] document in
///                 document.title = old
///             }
///             undoManager.setActionName("Rename")
///         }
///     }
/// }
///
/// let document = Document()
/// document.title = "Draft"
/// document.undoManager.undoMenuItemTitle // "Undo Rename"
/// document.undoManager.undo()            // title == "Untitled"
/// document.undoManager.redo()            // title == "Draft"
/// ```
///
/// ## Groups
///
/// Operations are recorded in groups, and ``undo()`` and ``redo()`` always
/// revert a whole group, performing its operations in the reverse order of
/// their registration. Groups nest with ``beginUndoGrouping()`` and
/// ``endUndoGrouping()``; a group that closes without any operation is
/// discarded.
///
/// Operations registered while undoing are recorded on the redo stack;
/// operations registered while redoing are recorded on the undo stack; any
/// other registration empties the redo stack.
///
/// ## Grouping by event
///
/// On Apple platforms, when ``groupsByEvent`` is true, the undo manager opens
/// a group on the first registration of a run loop pass and closes it at the
/// end of the pass. Linux has no such event loop to hook into, so here the
/// group is still opened automatically on first registration, but it is
/// closed by whoever defines the end of an "event": call
/// ``closeEventGroupIfNeeded()``. A managed object context calls it from
/// `processPendingChanges()`. ``undo()`` also closes the group, as on Apple
/// platforms, so an application that never calls the hook still gets one
/// undoable group per ``undo()``.
///
/// ## Concurrency
///
/// Like Apple's, this class is not `Sendable` and not thread-safe: use an
/// undo manager from a single thread or serial queue, such as the queue of
/// the managed object context that owns it. Undo handlers run synchronously
/// on the caller of ``undo()`` or ``redo()``.
///
/// ## Programmer errors
///
/// Where Apple's implementation raises `NSInternalInconsistencyException`
/// (unbalanced grouping, ``undo()`` with nested groups open, registering
/// with no open group when ``groupsByEvent`` is false, ``undo()`` or
/// ``redo()`` from inside an undo handler), this implementation stops with
/// `preconditionFailure` and a message that names the mistake.
open class UndoManager: NSObject {
    // MARK: - State

    /// Closed top-level groups, oldest first.
    private var undoStack: [UndoGroup] = []

    /// Closed top-level redo groups, oldest first.
    private var redoStack: [UndoGroup] = []

    /// Groups currently open, outermost first. `groupingLevel` is its count.
    private var openGroups: [UndoGroup] = []

    /// While undoing or redoing, the groups that were open when the undo or
    /// redo started. They are set aside so that the redo (or undo) group
    /// collected during the operation lands on its stack instead of being
    /// nested into whatever the application had open.
    private var suspendedGroups: [UndoGroup] = []
    private var suspendedEventGroupIsOpen = false

    /// True when the outermost open group was opened automatically by a
    /// registration (``groupsByEvent``), and is therefore the one that
    /// ``closeEventGroupIfNeeded()`` may close. A group the application
    /// opened itself is never closed behind its back.
    private var eventGroupIsOpen = false

    /// `disableUndoRegistration()` nests, hence a counter.
    private var disableCount = 0

    /// The target of ``setActionIsDiscardable(_:)``.
    private var latestAction: UndoAction?

    /// Creates an undo manager with empty stacks, ``groupsByEvent`` true and
    /// no limit on ``levelsOfUndo``.
    override public init() {
        super.init()
    }

    // MARK: - Registering undo operations

    /// Registers a closure that undoes an operation on `target`.
    ///
    /// The closure receives `target` when the operation is undone. To support
    /// redo, the closure registers the inverse operation in turn, typically
    /// by going through the same code path that registered it:
    ///
    /// ```swift
    /// func setName(_ name: String, of person: Person) {
    ///     let old = person.name
    ///     undoManager.registerUndo(withTarget: self) { controller in
    ///         controller.setName(old, of: person)
    ///     }
    ///     person.name = name
    /// }
    /// ```
    ///
    /// The undo manager retains `target` (and whatever the closure captures)
    /// until the operation is performed or removed. Managed object contexts
    /// depend on that to keep the objects whose changes can still be undone
    /// alive. Use ``removeAllActions(withTarget:)`` to let go of a target.
    ///
    /// The registration is ignored while registration is disabled (see
    /// ``disableUndoRegistration()``). When no group is open and
    /// ``groupsByEvent`` is true, a group is opened first.
    ///
    /// - Parameters:
    ///   - target: The object the operation applies to.
    ///   - handler: The closure that undoes the operation.
    public func registerUndo<TargetType: AnyObject>(
        withTarget target: TargetType,
        handler: @escaping (TargetType) -> Void)
    {
        guard isUndoRegistrationEnabled else { return }
        if openGroups.isEmpty {
            precondition(
                groupsByEvent,
                "UndoManager: registerUndo(withTarget:handler:) called with no open undo group "
                    + "while groupsByEvent is false. Call beginUndoGrouping() first.")
            openEventGroup()
        }
        // A new change forks history: what was undone can no longer be
        // redone on top of it. Undo and redo themselves register the inverse
        // operations, which must not wipe the other stack.
        if !isUndoing && !isRedoing {
            redoStack.removeAll()
        }
        let action = UndoAction(target: target) { handler(target) }
        openGroups[openGroups.count - 1].entries.append(.action(action))
        latestAction = action
    }

    // MARK: - Grouping

    /// Whether the undo manager opens a group automatically on the first
    /// registration when no group is open. The default is true.
    ///
    /// Such a group is closed by ``closeEventGroupIfNeeded()`` or by
    /// ``undo()``. When false, you must open groups with
    /// ``beginUndoGrouping()`` before registering, and close them before
    /// calling ``undo()`` or ``undoNestedGroup()``.
    open var groupsByEvent = true

    /// The number of open groups: nested undo groups, or, while undoing or
    /// redoing, nested groups collecting the inverse operations.
    open var groupingLevel: Int {
        openGroups.count
    }

    /// Opens an undo group, possibly nested in another one.
    ///
    /// All operations registered until the matching ``endUndoGrouping()`` are
    /// undone together.
    ///
    /// Posts ``Foundation/NSNotification/Name/NSUndoManagerCheckpoint``
    /// (unless an undo or redo is in progress), then
    /// ``Foundation/NSNotification/Name/NSUndoManagerDidOpenUndoGroup``.
    open func beginUndoGrouping() {
        openGroup(postingCheckpoint: !isUndoing && !isRedoing)
    }

    /// Closes the group opened by the matching ``beginUndoGrouping()``.
    ///
    /// A nested group becomes a single entry of its parent; a top-level group
    /// goes on the undo stack (or on the redo stack while undoing). A group
    /// without operations is discarded.
    ///
    /// Posts ``Foundation/NSNotification/Name/NSUndoManagerCheckpoint`` and
    /// ``Foundation/NSNotification/Name/NSUndoManagerWillCloseUndoGroup``
    /// before the group closes, and
    /// ``Foundation/NSNotification/Name/NSUndoManagerDidCloseUndoGroup``
    /// after.
    ///
    /// - Precondition: A group is open.
    open func endUndoGrouping() {
        precondition(
            !openGroups.isEmpty,
            "UndoManager: endUndoGrouping() called without a matching beginUndoGrouping().")
        // Observers flush pending work on the checkpoint, registering into
        // the group that is still open: that is why it comes first.
        post(.NSUndoManagerCheckpoint)
        precondition(
            !openGroups.isEmpty,
            "UndoManager: an NSUndoManagerCheckpoint observer closed the group being closed.")

        let group = openGroups[openGroups.count - 1]
        let userInfo: [AnyHashable: Any]? = group.isDiscardable
            ? [NSUndoManagerGroupIsDiscardableKey: NSNumber(value: true)]
            : nil
        post(.NSUndoManagerWillCloseUndoGroup, userInfo: userInfo)

        openGroups.removeLast()
        if let parent = openGroups.last {
            if !group.isEmpty {
                parent.entries.append(.group(group))
            }
        } else {
            eventGroupIsOpen = false
            if !group.isEmpty {
                if isUndoing {
                    redoStack.append(group)
                } else {
                    undoStack.append(group)
                    trimUndoStack()
                }
            }
        }
        post(.NSUndoManagerDidCloseUndoGroup)
    }

    /// Closes the group that ``groupsByEvent`` opened automatically, ending
    /// the current "event".
    ///
    /// This is the Linux replacement for the end of a run loop pass on Apple
    /// platforms. Call it when a unit of user-visible work is complete: a
    /// managed object context calls it from `processPendingChanges()`.
    ///
    /// It does nothing unless ``groupsByEvent`` is true and the only open
    /// group is one the undo manager opened itself, so calling it is always
    /// safe: groups opened with ``beginUndoGrouping()`` are left to their
    /// matching ``endUndoGrouping()``.
    public func closeEventGroupIfNeeded() {
        guard groupsByEvent,
              eventGroupIsOpen,
              openGroups.count == 1,
              !isUndoing,
              !isRedoing
        else { return }
        endUndoGrouping()
    }

    // MARK: - Undo and redo

    /// Closes the open top-level group, if any, then undoes the last group.
    ///
    /// Operations registered by the undo handlers are recorded, as one group,
    /// on the redo stack. See ``undoNestedGroup()`` for notifications.
    ///
    /// - Precondition: At most one group is open (Apple raises
    ///   `NSInternalInconsistencyException`), and no undo or redo is in
    ///   progress.
    open func undo() {
        precondition(
            !isUndoing && !isRedoing,
            "UndoManager: undo() called from an undo or redo handler.")
        precondition(
            openGroups.count <= 1,
            "UndoManager: undo() called with \(openGroups.count) nested undo groups open. "
                + "Close nested groups with endUndoGrouping(), or use undoNestedGroup().")
        if openGroups.count == 1 {
            endUndoGrouping()
        }
        undoNestedGroup()
    }

    /// Undoes the last group: the last closed group nested in the innermost
    /// open group if a group is open, or else the last group on the undo
    /// stack.
    ///
    /// Operations registered by the undo handlers are recorded, as one group
    /// that keeps the undone group's action name, on the redo stack.
    ///
    /// Posts ``Foundation/NSNotification/Name/NSUndoManagerCheckpoint`` and
    /// ``Foundation/NSNotification/Name/NSUndoManagerWillUndoChange`` before
    /// undoing, and ``Foundation/NSNotification/Name/NSUndoManagerDidUndoChange``
    /// after.
    ///
    /// - Precondition: No undo or redo is in progress, and no operation was
    ///   registered in the innermost open group after its last nested group
    ///   closed.
    open func undoNestedGroup() {
        precondition(
            !isUndoing && !isRedoing,
            "UndoManager: undoNestedGroup() called from an undo or redo handler.")
        let levelBeforeCheckpoint = openGroups.count
        post(.NSUndoManagerCheckpoint)
        // A context observing the checkpoint flushes its pending changes,
        // which opens an event group. Those changes are the most recent
        // ones, so they are what the user expects this undo to revert.
        if levelBeforeCheckpoint == 0 && openGroups.count == 1 && eventGroupIsOpen {
            endUndoGrouping()
        }

        let group: UndoGroup
        if let innermost = openGroups.last {
            guard let last = innermost.entries.last else { return }
            guard case .group(let nested) = last else {
                preconditionFailure(
                    "UndoManager: undoNestedGroup() called while undo operations are registered "
                        + "in the open group. Close it with endUndoGrouping() first.")
            }
            innermost.entries.removeLast()
            group = nested
        } else {
            guard let top = undoStack.popLast() else { return }
            group = top
        }
        perform(group, undoing: true)
    }

    /// Redoes the last group on the redo stack, if any.
    ///
    /// Operations registered by the redo handlers are recorded, as one group
    /// that keeps the redone group's action name, on the undo stack, without
    /// clearing the rest of the redo stack.
    ///
    /// Posts ``Foundation/NSNotification/Name/NSUndoManagerCheckpoint`` and
    /// ``Foundation/NSNotification/Name/NSUndoManagerWillRedoChange`` before
    /// redoing, and ``Foundation/NSNotification/Name/NSUndoManagerDidRedoChange``
    /// after.
    ///
    /// - Precondition: No undo or redo is in progress.
    open func redo() {
        precondition(
            !isUndoing && !isRedoing,
            "UndoManager: redo() called from an undo or redo handler.")
        // Pending changes flushed on the checkpoint clear the redo stack,
        // exactly as if they had been registered before the call.
        post(.NSUndoManagerCheckpoint)
        guard let group = redoStack.popLast() else { return }
        perform(group, undoing: false)
    }

    /// Whether ``undo()`` would undo something: the undo stack is not empty,
    /// or the open top-level group, which ``undo()`` closes first, holds
    /// operations.
    open var canUndo: Bool {
        nextUndoGroup != nil
    }

    /// Whether ``redo()`` would redo something.
    ///
    /// Posts ``Foundation/NSNotification/Name/NSUndoManagerCheckpoint`` first,
    /// as Apple's does: pending changes flushed by observers clear the redo
    /// stack, and the answer must account for them.
    open var canRedo: Bool {
        post(.NSUndoManagerCheckpoint)
        return !redoStack.isEmpty
    }

    /// Whether the undo manager is performing an undo.
    public private(set) var isUndoing = false

    /// Whether the undo manager is performing a redo.
    public private(set) var isRedoing = false

    // MARK: - Enabling registration

    /// Whether registrations are recorded.
    open var isUndoRegistrationEnabled: Bool {
        disableCount == 0
    }

    /// Stops recording registrations until the matching
    /// ``enableUndoRegistration()``.
    ///
    /// Calls nest: registration resumes once every call has been balanced.
    /// Use it to apply changes the user should not be able to undo, such as
    /// loading a document.
    open func disableUndoRegistration() {
        disableCount += 1
    }

    /// Balances a previous ``disableUndoRegistration()``.
    ///
    /// - Precondition: Registration was disabled.
    open func enableUndoRegistration() {
        precondition(
            disableCount > 0,
            "UndoManager: enableUndoRegistration() called without a matching disableUndoRegistration().")
        disableCount -= 1
    }

    // MARK: - Limits and removal

    /// The maximum number of top-level groups on the undo stack; 0, the
    /// default, means no limit.
    ///
    /// When the stack exceeds the limit, the oldest groups are dropped, along
    /// with the objects they retain. Lowering the limit drops them at once.
    open var levelsOfUndo = 0 {
        didSet { trimUndoStack() }
    }

    /// Empties the undo and redo stacks, and re-enables registration.
    ///
    /// Open groups stay open, but lose their operations, so that the
    /// application's pending ``endUndoGrouping()`` calls remain balanced.
    open func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        for group in openGroups + suspendedGroups {
            group.entries.removeAll()
        }
        latestAction = nil
        disableCount = 0
    }

    /// Removes every operation registered with `target`, from both stacks
    /// and from open groups, releasing the undo manager's hold on it.
    ///
    /// Groups left without operations are discarded. Registration is not
    /// re-enabled.
    ///
    /// - Parameter target: The target whose operations are removed, compared
    ///   by identity.
    open func removeAllActions(withTarget target: Any) {
        let object = target as AnyObject
        undoStack.removeAll { group in
            group.removeActions(withTarget: object)
            return group.isEmpty
        }
        redoStack.removeAll { group in
            group.removeActions(withTarget: object)
            return group.isEmpty
        }
        for group in openGroups + suspendedGroups {
            group.removeActions(withTarget: object)
        }
        if latestAction?.target === object {
            latestAction = nil
        }
    }

    // MARK: - Action names

    /// Sets the name shown in the Undo and Redo menu items for the current
    /// group: the open top-level group if any (while undoing, that is the
    /// group collecting redo operations), or else the last group on the undo
    /// stack.
    ///
    /// The name travels with the group: once undone, it names the redo
    /// group, and once redone, the undo group again.
    ///
    /// - Parameter actionName: The name; the empty string removes it.
    open func setActionName(_ actionName: String) {
        if let group = openGroups.first ?? undoStack.last {
            group.actionName = actionName
        }
    }

    /// The name of the group ``undo()`` would undo, or the empty string if
    /// it has no name or there is nothing to undo.
    open var undoActionName: String {
        nextUndoGroup?.actionName ?? ""
    }

    /// The name of the group ``redo()`` would redo, or the empty string if
    /// it has no name or there is nothing to redo.
    open var redoActionName: String {
        redoStack.last?.actionName ?? ""
    }

    /// The title of the Undo menu item, such as "Undo Rename".
    open var undoMenuItemTitle: String {
        undoMenuTitle(forUndoActionName: undoActionName)
    }

    /// The title of the Redo menu item, such as "Redo Rename".
    open var redoMenuItemTitle: String {
        redoMenuTitle(forUndoActionName: redoActionName)
    }

    /// The Undo menu title for an action name: "Undo" followed by the name,
    /// or just "Undo" when the name is empty.
    ///
    /// Titles are in English. Override this method to localize them.
    open func undoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Undo" : "Undo \(actionName)"
    }

    /// The Redo menu title for an action name: "Redo" followed by the name,
    /// or just "Redo" when the name is empty.
    ///
    /// Titles are in English. Override this method to localize them.
    open func redoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Redo" : "Redo \(actionName)"
    }

    // MARK: - Discardable actions

    /// Marks the most recently registered operation as discardable, or not.
    ///
    /// Discardable operations do not affect persistent state (scrolling, for
    /// example), so a document that cannot be saved may drop them. A group
    /// made only of discardable operations is announced as such in the
    /// `userInfo` of ``Foundation/NSNotification/Name/NSUndoManagerWillCloseUndoGroup``.
    open func setActionIsDiscardable(_ discardable: Bool) {
        latestAction?.isDiscardable = discardable
    }

    /// Whether the group ``undo()`` would undo contains only discardable
    /// operations.
    open var undoActionIsDiscardable: Bool {
        nextUndoGroup?.isDiscardable ?? false
    }

    /// Whether the group ``redo()`` would redo contains only discardable
    /// operations.
    open var redoActionIsDiscardable: Bool {
        redoStack.last?.isDiscardable ?? false
    }

    // MARK: - Private

    /// The group ``undo()`` would revert: the open top-level group once it
    /// holds operations (``undo()`` closes it first), else the undo stack top.
    private var nextUndoGroup: UndoGroup? {
        if !isUndoing, !isRedoing, let open = openGroups.first, !open.isEmpty {
            return open
        }
        return undoStack.last
    }

    private func openEventGroup() {
        // No checkpoint here, unlike beginUndoGrouping(): we are inside a
        // registration, and a checkpoint observer that flushes pending
        // changes would re-enter registerUndo before the group exists.
        openGroup(postingCheckpoint: false)
        eventGroupIsOpen = true
    }

    private func openGroup(postingCheckpoint: Bool) {
        if postingCheckpoint {
            post(.NSUndoManagerCheckpoint)
        }
        openGroups.append(UndoGroup())
        post(.NSUndoManagerDidOpenUndoGroup)
    }

    private func perform(_ group: UndoGroup, undoing: Bool) {
        post(undoing ? .NSUndoManagerWillUndoChange : .NSUndoManagerWillRedoChange)

        suspendedGroups = openGroups
        suspendedEventGroupIsOpen = eventGroupIsOpen
        openGroups = []
        eventGroupIsOpen = false
        // The operation being performed is no longer "the latest": a
        // setActionIsDiscardable(_:) from a handler targets what it registers.
        latestAction = nil
        if undoing { isUndoing = true } else { isRedoing = true }

        // The inverse operations form one group, named like the one they
        // invert, so the menu reads "Redo Rename" after "Undo Rename".
        openGroup(postingCheckpoint: false)
        openGroups[0].actionName = group.actionName
        group.performInReverse()
        precondition(
            openGroups.count == 1,
            "UndoManager: an undo or redo handler left \(openGroups.count - 1) undo group(s) open.")
        // Closes onto the redo stack when undoing, the undo stack when redoing.
        endUndoGrouping()

        isUndoing = false
        isRedoing = false
        openGroups = suspendedGroups
        eventGroupIsOpen = suspendedEventGroupIsOpen
        suspendedGroups = []
        suspendedEventGroupIsOpen = false

        post(undoing ? .NSUndoManagerDidUndoChange : .NSUndoManagerDidRedoChange)
    }

    private func trimUndoStack() {
        guard levelsOfUndo > 0, undoStack.count > levelsOfUndo else { return }
        undoStack.removeFirst(undoStack.count - levelsOfUndo)
    }

    private func post(_ name: Notification.Name, userInfo: [AnyHashable: Any]? = nil) {
        NotificationCenter.default.post(name: name, object: self, userInfo: userInfo)
    }
}

// MARK: - Storage

/// One registered operation. A class, so that `setActionIsDiscardable(_:)`
/// can flag it after it was stored in its group.
private final class UndoAction {
    /// Kept alongside the closure, which also captures it, so that
    /// `removeAllActions(withTarget:)` can find operations by target.
    let target: AnyObject
    let perform: () -> Void
    var isDiscardable = false

    init(target: AnyObject, perform: @escaping () -> Void) {
        self.target = target
        self.perform = perform
    }
}

/// A group of operations and closed nested groups, in registration order.
/// A class, because open groups are mutated in place while referenced from
/// both `openGroups` and their parent.
private final class UndoGroup {
    enum Entry {
        case action(UndoAction)
        case group(UndoGroup)
    }

    var entries: [Entry] = []
    var actionName = ""

    var isEmpty: Bool {
        entries.isEmpty
    }

    /// True when every operation, nested ones included, is discardable.
    var isDiscardable: Bool {
        !entries.isEmpty && entries.allSatisfy { entry in
            switch entry {
            case .action(let action): action.isDiscardable
            case .group(let group): group.isDiscardable
            }
        }
    }

    /// Undoing a group reverts its most recent change first, recursively.
    func performInReverse() {
        for entry in entries.reversed() {
            switch entry {
            case .action(let action): action.perform()
            case .group(let group): group.performInReverse()
            }
        }
    }

    /// Removes the operations on `target`, and nested groups left empty.
    func removeActions(withTarget target: AnyObject) {
        entries.removeAll { entry in
            switch entry {
            case .action(let action):
                return action.target === target
            case .group(let group):
                group.removeActions(withTarget: target)
                return group.isEmpty
            }
        }
    }
}

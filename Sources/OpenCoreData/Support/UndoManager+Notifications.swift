// swift-corelibs-foundation has no UndoManager, and therefore none of the
// names below. They are declared here with Apple's Swift spellings and raw
// values, so that code written against Apple's Foundation compiles unchanged
// and observers keyed on the raw strings keep working.

extension Notification.Name {
    /// Posted whenever an ``UndoManager`` opens or closes an undo group
    /// (except when it opens the group that collects redo or undo actions
    /// during ``UndoManager/undo()`` and ``UndoManager/redo()``), and before
    /// it undoes or redoes a group.
    ///
    /// Observers use it as a "flush now" signal: a managed object context
    /// processes its pending changes on a checkpoint, so that the undo
    /// actions for those changes land in the group that is about to close.
    ///
    /// The notification object is the undo manager. There is no `userInfo`.
    public static let NSUndoManagerCheckpoint = Notification.Name("NSUndoManagerCheckpointNotification")

    /// Posted just before an ``UndoManager`` performs an undo.
    ///
    /// The notification object is the undo manager. There is no `userInfo`.
    public static let NSUndoManagerWillUndoChange = Notification.Name("NSUndoManagerWillUndoChangeNotification")

    /// Posted just after an ``UndoManager`` performs an undo.
    ///
    /// The notification object is the undo manager. There is no `userInfo`.
    public static let NSUndoManagerDidUndoChange = Notification.Name("NSUndoManagerDidUndoChangeNotification")

    /// Posted just before an ``UndoManager`` performs a redo.
    ///
    /// The notification object is the undo manager. There is no `userInfo`.
    public static let NSUndoManagerWillRedoChange = Notification.Name("NSUndoManagerWillRedoChangeNotification")

    /// Posted just after an ``UndoManager`` performs a redo.
    ///
    /// The notification object is the undo manager. There is no `userInfo`.
    public static let NSUndoManagerDidRedoChange = Notification.Name("NSUndoManagerDidRedoChangeNotification")

    /// Posted whenever an ``UndoManager`` opens an undo group.
    ///
    /// The notification object is the undo manager. There is no `userInfo`.
    public static let NSUndoManagerDidOpenUndoGroup = Notification.Name("NSUndoManagerDidOpenUndoGroupNotification")

    /// Posted before an ``UndoManager`` closes an undo group.
    ///
    /// The notification object is the undo manager. When the group contains
    /// only discardable actions, `userInfo` holds
    /// ``NSUndoManagerGroupIsDiscardableKey`` with a `true` `NSNumber`.
    public static let NSUndoManagerWillCloseUndoGroup = Notification.Name("NSUndoManagerWillCloseUndoGroupNotification")

    /// Posted after an ``UndoManager`` closes an undo group.
    ///
    /// The notification object is the undo manager. There is no `userInfo`.
    public static let NSUndoManagerDidCloseUndoGroup = Notification.Name("NSUndoManagerDidCloseUndoGroupNotification")
}

/// The `userInfo` key of ``Foundation/NSNotification/Name/NSUndoManagerWillCloseUndoGroup``
/// whose value, a Boolean `NSNumber`, is `true` when the closing group
/// contains only discardable actions.
///
/// See ``UndoManager/setActionIsDiscardable(_:)``.
public let NSUndoManagerGroupIsDiscardableKey: String = "NSUndoManagerGroupIsDiscardableKey"

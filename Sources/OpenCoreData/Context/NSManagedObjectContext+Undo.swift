import Foundation

/// Undo of insertions and deletions. `insert(_:)`, `delete(_:)` and every property change
/// register their inverse with the context's `undoManager` (see `NSManagedObjectContext+Changes.swift`);
/// these are the inverses of insertion and deletion.
///
/// ```swift
/// context.undoManager = UndoManager()
/// let e = Employee(context: context)
/// context.processPendingChanges()
/// context.undo()                      // e is no longer inserted
/// ```
extension NSManagedObjectContext {
    /// Reverses the latest group of changes through the context's `undoManager`; nothing
    /// without one.
    public func undo() {
        assertOnQueue()
        undoManager?.undo()
    }

    /// Applies again the changes the latest `undo()` reversed.
    public func redo() {
        assertOnQueue()
        undoManager?.redo()
    }

    /// Undo of an insertion: the object leaves the context again.
    func undoInsertion(of object: NSManagedObject) {
        state.inserted.remove(object)
        state.eventInserted.remove(object)
        state.updated.remove(object)
        object.flags.remove(.inserted)
        registry.forget(object)
        object.managedObjectContext = nil
        undoManager?.registerUndo(withTarget: self) { context in
            context.insert(object)
            object.awake(fromSnapshotEvents: .undoDeletion)
        }
    }

    func undoDeletion(of object: NSManagedObject, wasInserted: Bool) {
        object.flags.remove([.deleted, .awaitingRemoval])
        state.deleted.remove(object)
        state.eventDeleted.remove(object)
        state.deletesToPropagate.removeAll { $0 === object }
        if wasInserted {
            if object.managedObjectContext == nil { object.managedObjectContext = self; registry.register(object) }
            object.flags.insert(.inserted)
            state.inserted.insert(object)
        } else if object.hasPersistentChangedValues {
            object.flags.insert(.updated)
            state.updated.insert(object)
        }
        object.awake(fromSnapshotEvents: .undoDeletion)
        undoManager?.registerUndo(withTarget: self) { context in context.delete(object) }
    }
}

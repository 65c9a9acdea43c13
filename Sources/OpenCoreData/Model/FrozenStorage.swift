import Foundation

/// What freezing a model builds for one entity in the layers above the model: the object
/// layer's ``EntityLayout`` (slot order, initial slots, resolved class, `@Managed` caches) is
/// the one subclass.
///
/// ```swift
/// entity.frozenStorage = EntityLayout(...)   // while the model freezes, in Object/
/// ```
///
/// The model layer stores it without knowing what it holds, so that `Model/` names no type of
/// `Object/`; the object layer reads it back with `unsafeDowncast` (free in release builds,
/// checked in debug builds), since it is the only layer that puts one there.
class FrozenEntityStorage {
    init() {}
}

/// What freezing a model builds for the whole model in the layers above (the object layer's
/// ``ObjectModelStorage``); see ``FrozenEntityStorage``.
class FrozenModelStorage {
    init() {}

    /// Called from the model's `deinit`, while its entities are still reachable: undo what
    /// freezing tied into cycles or process-wide registries, so that the model and its
    /// entities can be freed.
    func modelWillBeFreed(_ model: NSManagedObjectModel) {}
}

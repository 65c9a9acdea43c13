@_exported import OpenCoreData

/// Declares a typed property of a managed object subclass with generated accessors — the
/// Linux stand-in for `@NSManaged`, and the fastest way to declare one.
///
/// ```swift
/// import OpenCoreDataMacros
///
/// final class Employee: NSManagedObject {
///     @ManagedProperty var firstName: String?
///     @ManagedProperty var salary: Int64
///     @ManagedProperty var department: Department?
///     @ManagedProperty var directReports: Set<Employee>
///     @ManagedProperty("surname") var lastName: String?   // the entity's property "surname"
/// }
/// ```
///
/// The property's name is its key in the entity unless you pass another. It takes every type
/// `@NSManaged` does and behaves as `@Managed` — change tracking,
/// undo, inverse maintenance, faulting — but its accessors read the object's storage through a
/// ``ManagedPropertyKey`` made once per class instead of the two key paths Swift materialises
/// on every access to a property wrapper: a fetch that reads every attribute spends about a
/// quarter less time.
///
/// A generic class can't use it (Swift has no static stored properties in generic types, and
/// the key is one): declare such properties with `@Managed`.
///
/// The macro writes the property's accessors and a static key beside it:
///
/// ```swift
/// var salary: Int64 {
///     get { self[managed: Self.__managedKey_salary] }
///     set { self[managed: Self.__managedKey_salary] = newValue }
/// }
/// private static let __managedKey_salary = ManagedPropertyKeys.key((Int64).self, "salary")
/// ```
///
/// The key is a ``ManagedPropertyKey`` for types that conform to `ManagedPropertyValue`; any
/// other type (a Foundation or app type in a transformable attribute) gets a
/// ``ManagedValueKey``, whose accessors go through key-value coding.
@attached(accessor, names: named(get), named(set))
@attached(peer, names: prefixed(__managedKey_))
public macro ManagedProperty() = #externalMacro(module: "OpenCoreDataMacrosPlugin", type: "ManagedPropertyMacro")

/// Declares a typed property stored in the entity property `key` (see ``ManagedProperty()``).
@attached(accessor, names: named(get), named(set))
@attached(peer, names: prefixed(__managedKey_))
public macro ManagedProperty(_ key: String) = #externalMacro(module: "OpenCoreDataMacrosPlugin", type: "ManagedPropertyMacro")

/// Gives one of Xcode's generated to-many accessors its body — the Linux stand-in for
/// `@NSManaged` on a function (Swift lets no macro give both a property its accessors and a
/// function its body, so properties take ``ManagedProperty()`` and functions this one).
///
/// ```swift
/// extension Playlist {
///     @ManagedAccessor public func addToSongs(_ value: Song)
///     @ManagedAccessor public func removeFromSongs(_ values: NSOrderedSet)
///     @ManagedAccessor public func insertIntoSongs(_ value: Song, at idx: Int)
///     @ManagedAccessor public func replaceSongs(at idx: Int, with value: Song)
/// }
/// ```
///
/// The relationship is the one the name spells (`addToSongs` → `songs`), unless you pass its
/// key. The body calls ``ManagedToManyAccessor``, which changes the relationship through its
/// live set, so inverses, change tracking and undo behave as with Apple's accessors.
@attached(body)
public macro ManagedAccessor() = #externalMacro(module: "OpenCoreDataMacrosPlugin", type: "ManagedAccessorMacro")

/// A to-many accessor of the relationship `key` (see ``ManagedAccessor()``).
@attached(body)
public macro ManagedAccessor(_ key: String) = #externalMacro(module: "OpenCoreDataMacrosPlugin", type: "ManagedAccessorMacro")

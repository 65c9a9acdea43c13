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
/// The property's name is its key in the entity unless you pass another. It takes the same
/// types as `@Managed` (see `ManagedPropertyValue`) and behaves the same — change tracking,
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
/// private static let __managedKey_salary = ManagedPropertyKey<Int64>("salary")
/// ```
@attached(accessor, names: named(get), named(set))
@attached(peer, names: prefixed(__managedKey_))
public macro ManagedProperty() = #externalMacro(module: "OpenCoreDataMacrosPlugin", type: "ManagedPropertyMacro")

/// Declares a typed property stored in the entity property `key` (see ``ManagedProperty()``).
@attached(accessor, names: named(get), named(set))
@attached(peer, names: prefixed(__managedKey_))
public macro ManagedProperty(_ key: String) = #externalMacro(module: "OpenCoreDataMacrosPlugin", type: "ManagedPropertyMacro")

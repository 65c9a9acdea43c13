import Foundation

/// Transformable attribute values as the stores keep them, in a binary column: the bytes of
/// the `ValueTransformer` the attribute names, or an `NSKeyedArchiver` archive.
///
/// ```swift
/// let data = try TransformableValueCoding.data(for: colors, of: attribute)   // saving
/// let value = TransformableValueCoding.value(from: data, of: attribute)      // reading: .boxed(colors)
/// ```
///
/// A `ValueTransformer` layer (with `NSSecureUnarchiveFromData` as the default, as on Apple
/// platforms) is still to come; until then values that are neither `Data` nor `NSCoding`
/// objects are refused at save with an error that says so, and an archive that does not
/// decode is handed back as its `Data`.
enum TransformableValueCoding {
    /// The bytes to store for `value` of the transformable `attribute`.
    static func data(for value: Any, of attribute: NSAttributeDescription) throws -> Data {
        guard attribute.attributeType == .transformableAttributeType else {
            throw StoreCodingError("attribute '\(attribute.name)' holds a \(type(of: value)), not a value of its type \(attribute.attributeType)")
        }
        if let transformer = customTransformer(of: attribute) {
            guard let data = transformer.storedData(for: value) else {
                throw StoreCodingError("transformable attribute '\(attribute.name)': value transformer '\(attribute.valueTransformerName ?? "")' did not turn the \(type(of: value)) into Data")
            }
            return data
        }
        if let data = value as? Data { return data }
        guard let object = value as? NSObject, object is NSCoding else {
            throw StoreCodingError("transformable attribute '\(attribute.name)' holds a \(type(of: value)), which is not an NSCoding object. Store NSCoding objects (NSString, NSArray, NSDictionary, your NSSecureCoding class) or Data, or name a registered ValueTransformer in valueTransformerName")
        }
        do {
            return try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: false)
        } catch {
            throw StoreCodingError("transformable attribute '\(attribute.name)': NSKeyedArchiver failed: \(error.localizedDescription)")
        }
    }

    /// The value of the transformable `attribute` stored as `data`.
    static func value(from data: Data, of attribute: NSAttributeDescription) -> StoredValue {
        if let transformer = customTransformer(of: attribute) {
            return transformer.value(fromStored: data).map { .boxed(AnyBox($0)) } ?? .null
        }
        return .boxed(AnyBox(unarchive(data) ?? data))
    }

    /// The transformer an attribute names, unless it is one of the keyed-archive defaults, which
    /// the store applies itself (leniently, so an Apple app's own classes come back as bytes).
    private static func customTransformer(of attribute: NSAttributeDescription) -> ValueTransformer? {
        guard let name = attribute.valueTransformerName, !name.isEmpty,
              ![NSValueTransformerName.secureUnarchiveFromDataTransformerName, .keyedUnarchiveFromDataTransformerName, .unarchiveFromDataTransformerName]
                .map(\.rawValue).contains(name) else { return nil }
        return ValueTransformer.registered(NSValueTransformerName(name))
    }

    /// The archived root object, or nil when `data` is not a keyed archive or names a class
    /// this process does not have.
    private static func unarchive(_ data: Data) -> Any? {
        guard UntrustedPropertyList.binaryProblem(data) == nil, let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data) else { return nil }
        unarchiver.requiresSecureCoding = false
        // The default policy on Linux traps on an archive of an unknown class (an Apple app's
        // own NSSecureCoding types, say); report failure instead and keep the bytes.
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        defer { unarchiver.finishDecoding() }
        return unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
    }
}

/// A value a store can't write; the store reports it as a save error.
struct StoreCodingError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

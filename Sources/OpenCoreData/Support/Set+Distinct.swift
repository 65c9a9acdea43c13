extension Set {
    /// A set of elements the caller knows to be distinct, in a table with room to spare
    /// (twice `underestimatedCount`, which for an array is its count).
    ///
    /// ```swift
    /// let ids = Set(distinct: insertedObjects.map(\.objectID))
    /// ```
    ///
    /// `Set` probes linearly and compares the new element with every one it meets on the way.
    /// The objects and IDs Core Data hands out in change notifications compare through
    /// `NSObject.isEqual(_:)`, which on Linux begins with a dynamic cast. With twice the room,
    /// an insert meets far fewer members than at the three-quarters load `Set(_:)` allows.
    init<S: Sequence>(distinct elements: S) where S.Element == Element {
        self.init(minimumCapacity: elements.underestimatedCount * 2)
        for element in elements { insert(element) }
    }
}

import CMemoryHints

extension UnsafeBufferPointer where Element == StoreRow {
    /// Asks the CPU to start loading the values of the row at `index`, if there is one, for
    /// the reference count about to be taken on them.
    ///
    /// ```swift
    /// for i in rows.indices {
    ///     rows.prefetchValues(at: i + StoreRow.prefetchDistance)
    ///     use(rows[i])
    /// }
    /// ```
    ///
    /// A fetch decodes all its rows before it makes objects of them, so in a large fetch a
    /// row's values are out of every cache by the time its object takes them, and taking the
    /// reference stalls on each row's memory. Started a dozen rows ahead, the load overlaps the
    /// work on the rows before.
    ///
    /// Reads the values' storage address from the row's bytes rather than through `values`,
    /// which would take a reference: the very access that stalls. A wrong address would cost
    /// nothing but the hint: prefetching never faults.
    @inline(__always)
    func prefetchValues(at index: Int) {
        guard index < count, let base = baseAddress, StoreRow.valuesStorageOffset >= 0 else { return }
        let storage = UnsafeRawPointer(base + index).load(fromByteOffset: StoreRow.valuesStorageOffset, as: UnsafeRawPointer?.self)
        if let storage { ocd_prefetch_for_write(storage) }
    }
}

extension StoreRow {
    /// How many rows ahead ``UnsafeBufferPointer/prefetchValues(at:)`` is worth asking: far
    /// enough for a memory load to arrive (a row's work is a few hundred nanoseconds), near
    /// enough not to evict rows still in use.
    static var prefetchDistance: Int { 12 }

    /// Where in a row the reference to its values' storage is; -1 if `RowValues` is not the one
    /// reference it is on every platform Swift runs on today.
    static let valuesStorageOffset: Int = {
        guard MemoryLayout<RowValues>.size == MemoryLayout<UnsafeRawPointer>.size else { return -1 }
        return MemoryLayout<StoreRow>.offset(of: \StoreRow.values) ?? -1
    }()
}

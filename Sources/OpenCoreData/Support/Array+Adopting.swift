extension Array {
    /// Appends `other`'s elements, or takes `other`'s storage whole when this array is empty.
    ///
    /// ```swift
    /// var rows: [StoreRow] = []
    /// rows.append(adopting: batch)   // no copy: `rows` shares `batch`'s buffer
    /// ```
    ///
    /// `append(contentsOf:)` copies every element even into an empty array. For store rows that
    /// is three references taken per row, and given back when `other` goes: a batch of faults
    /// read from one store usually arrives as one array, which the result can simply become.
    mutating func append(adopting other: [Element]) {
        if isEmpty { self = other } else { append(contentsOf: other) }
    }
}

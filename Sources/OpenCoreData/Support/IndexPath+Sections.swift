import Foundation

/// The section-and-row form of `IndexPath` that UIKit and AppKit add on Apple platforms, which
/// `NSFetchedResultsController` uses for every position it reports.
///
/// ```swift
/// let path = IndexPath(item: 2, section: 0)
/// let employee = controller.object(at: path)   // the third object of the first section
/// ```
extension IndexPath {
    /// An index path of two indexes: the section, then the item (row) inside it.
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// An index path of two indexes: the section, then the row inside it (UIKit's table spelling).
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// The first index: the section.
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The second index: the item inside the section.
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// The second index: the row inside the section (the same as ``item``).
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}

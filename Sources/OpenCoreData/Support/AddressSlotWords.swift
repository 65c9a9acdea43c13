import Synchronization

/// A fixed number of atomic words, each pairing an object's address with a property slot:
/// `address << 16 | slot + 1`, 0 for an empty word. The slot caches of `@Managed` (keyed by key
/// path) and `ManagedPropertyKey` (keyed by entity) are built on it.
///
/// ```swift
/// let words = AddressSlotWords(count: 4)
/// if let word = AddressSlotWords.word(for: entity, slot: 7) { words.store(word, at: 0) }
/// let word = words.load(0)
/// if AddressSlotWords.names(word, address: AddressSlotWords.address(of: entity)) { AddressSlotWords.slot(in: word) }  // 7
/// ```
///
/// A word is written whole, so a reader on another thread sees an entry or nothing, never half
/// of one. Its owner must keep every object it lists alive: otherwise another object could get
/// the same address and read the wrong slot.
struct AddressSlotWords: ~Copyable, @unchecked Sendable {
    // @unchecked Sendable: the words are atomics; `count` is immutable. Noncopyable, so that its
    // owner holds the words inline (no object to go through on every read) and frees them once.
    let count: Int
    private let words: UnsafeMutablePointer<Atomic<UInt64>>

    init(count: Int) {
        self.count = count
        words = .allocate(capacity: count)
        for i in 0..<count { (words + i).initialize(to: Atomic(0)) }
    }

    deinit {
        words.deinitialize(count: count)
        words.deallocate()
    }

    @inline(__always) static func address(of object: AnyObject) -> UInt64 {
        UInt64(UInt(bitPattern: ObjectIdentifier(object)))
    }

    /// The word for `object` and `slot`, or nil if they don't fit one (an address above 2⁴⁸, a
    /// slot above 65,534): the caller keeps such pairs elsewhere.
    static func word(for object: AnyObject, slot: Int) -> UInt64? {
        let address = address(of: object)
        guard address >> 48 == 0, (0..<0xFFFF).contains(slot) else { return nil }
        return address << 16 | UInt64(slot + 1)
    }

    /// Whether `word` names the object at `address` (never true of an empty word: no object
    /// lives at address 0).
    @inline(__always) static func names(_ word: UInt64, address: UInt64) -> Bool { word >> 16 == address }

    /// The slot in a word that names an object.
    @inline(__always) static func slot(in word: UInt64) -> Int { Int(truncatingIfNeeded: word & 0xFFFF) - 1 }

    @inline(__always) func load(_ i: Int) -> UInt64 { words[i].load(ordering: .relaxed) }
    @inline(__always) func store(_ word: UInt64, at i: Int) { words[i].store(word, ordering: .relaxed) }
}

import OpenCoreDataMacros
import XCTest

// The shapes Xcode's "Category/Extension" code generation writes, with `@ManagedProperty` and
// `@ManagedAccessor` where Xcode writes `@NSManaged`: an empty class, its properties in an extension typed as Xcode types
// them (`NSNumber?`, `NSDecimalNumber?`, `Date!`, `NSSet?`, `NSOrderedSet?`), and the generated
// to-many accessor functions, which keep inverses, change tracking and undo as Apple's do.

public final class Playlist: NSManagedObject {}

extension Playlist {
    @ManagedProperty public var name: String?
    @ManagedProperty public var rating: NSNumber?
    @ManagedProperty public var price: NSDecimalNumber?
    @ManagedProperty public var created: Date!
    @ManagedProperty public var tags: NSSet?
    @ManagedProperty public var songs: NSOrderedSet?
    @ManagedProperty public var keywords: [String]?          // transformable
    @ManagedProperty public var scores: [Int64]              // transformable, not optional
    @ManagedProperty public var homepage: NSURL?             // URI
}

// MARK: Generated accessors for tags
extension Playlist {
    @ManagedAccessor public func addToTags(_ value: Tag)
    @ManagedAccessor public func removeFromTags(_ value: Tag)
    @ManagedAccessor public func addToTags(_ values: NSSet)
    @ManagedAccessor public func removeFromTags(_ values: NSSet)
}

// MARK: Generated accessors for songs
extension Playlist {
    @ManagedAccessor public func insertIntoSongs(_ value: Song, at idx: Int)
    @ManagedAccessor public func removeFromSongs(at idx: Int)
    @ManagedAccessor public func insertIntoSongs(_ values: [Song], at indexes: NSIndexSet)
    @ManagedAccessor public func removeFromSongs(at indexes: NSIndexSet)
    @ManagedAccessor public func replaceSongs(at idx: Int, with value: Song)
    @ManagedAccessor public func replaceSongs(at indexes: NSIndexSet, with values: [Song])
    @ManagedAccessor public func addToSongs(_ value: Song)
    @ManagedAccessor public func removeFromSongs(_ value: Song)
    @ManagedAccessor public func addToSongs(_ values: NSOrderedSet)
    @ManagedAccessor public func removeFromSongs(_ values: NSOrderedSet)
    // The key-value coding selector's name, which Apple code declares too.
    @ManagedAccessor public func addSongs(_ values: NSOrderedSet)
}

public final class Tag: NSManagedObject {}
extension Tag {
    @ManagedProperty public var label: String?
    @ManagedProperty public var playlist: Playlist?
    // Core Data's primitive accessors, as custom accessors use them.
    @ManagedProperty var primitiveLabel: String?
    @ManagedProperty var primitivePlaylist: Playlist?
}

public final class Song: NSManagedObject {}
extension Song {
    @ManagedProperty public var title: String?
    @ManagedProperty public var playlist: Playlist?
}

final class XcodeGeneratedShapesTests: XCTestCase {
    private func model() -> NSManagedObjectModel {
        let playlist = NSEntityDescription(name: "Playlist", className: "OpenCoreDataMacrosTests.Playlist", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSAttributeDescription(name: "rating", type: .integer16AttributeType),
            NSAttributeDescription(name: "price", type: .decimalAttributeType),
            NSAttributeDescription(name: "created", type: .dateAttributeType),
            NSAttributeDescription(name: "keywords", type: .transformableAttributeType),
            NSAttributeDescription(name: "scores", type: .transformableAttributeType),
            NSAttributeDescription(name: "homepage", type: .URIAttributeType),
        ])
        let tag = NSEntityDescription(name: "Tag", className: "OpenCoreDataMacrosTests.Tag", properties: [NSAttributeDescription(name: "label", type: .stringAttributeType)])
        let song = NSEntityDescription(name: "Song", className: "OpenCoreDataMacrosTests.Song", properties: [NSAttributeDescription(name: "title", type: .stringAttributeType)])
        func pair(_ toMany: String, _ toOne: String, _ member: NSEntityDescription, ordered: Bool) {
            let many = NSRelationshipDescription(), one = NSRelationshipDescription()
            many.name = toMany; many.maxCount = 0; many.isOrdered = ordered; many.destinationEntity = member; many.inverseRelationship = one
            one.name = toOne; one.maxCount = 1; one.destinationEntity = playlist; one.inverseRelationship = many
            playlist.properties += [many]
            member.properties += [one]
        }
        pair("tags", "playlist", tag, ordered: false)
        pair("songs", "playlist", song, ordered: true)
        let model = NSManagedObjectModel()
        model.entities = [playlist, tag, song]
        return model
    }

    private func context(at url: URL) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    private func storeURL() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-xcode-shapes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory.appendingPathComponent("Music.sqlite")
    }

    func testFoundationTypedPropertiesInAnExtensionReadAndWriteTheEntitysValues() throws {
        let url = try storeURL()
        let created = Date(timeIntervalSinceReferenceDate: 700_000_000)
        let saving = try context(at: url)
        try saving.performAndWait {
            let playlist = Playlist(context: saving)
            XCTAssertNil(playlist.rating)
            XCTAssertNil(playlist.created as Date?)
            XCTAssertEqual(playlist.tags?.count, 0, "a to-many NSSet? reads its (empty) members, never nil")
            XCTAssertNil(playlist.keywords)
            XCTAssertEqual(playlist.scores, [], "a nil transformable reads as empty in a non-optional array")
            playlist.keywords = ["road", "summer"]
            playlist.scores = [3, 5]
            playlist.homepage = NSURL(string: "https://example.com/mix")
            playlist.name = "Road trip"
            playlist.rating = NSNumber(value: 4)
            playlist.price = NSDecimalNumber(string: "9.99")
            playlist.created = created
            XCTAssertEqual(playlist.value(forKey: "rating") as? Int16, 4)
            XCTAssertEqual(playlist.value(forKey: "price") as? Decimal, Decimal(string: "9.99"))
            let tag = Tag(context: saving)
            tag.label = "summer"
            playlist.tags = NSSet(array: [tag])
            XCTAssertTrue(tag.playlist === playlist, "writing the NSSet sets the inverse")
            try saving.save()
        }
        let reading = try context(at: url)
        try reading.performAndWait {
            let playlist = try XCTUnwrap(try reading.fetch(NSFetchRequest<Playlist>(entityName: "Playlist")).first)
            XCTAssertEqual(playlist.rating?.int16Value, 4)
            XCTAssertEqual(playlist.price, NSDecimalNumber(string: "9.99"))
            XCTAssertEqual(playlist.created, created)
            XCTAssertEqual(playlist.keywords, ["road", "summer"])
            XCTAssertEqual(playlist.scores, [3, 5])
            XCTAssertEqual(playlist.homepage?.absoluteString, "https://example.com/mix")
            XCTAssertEqual(playlist.value(forKey: "homepage") as? URL, URL(string: "https://example.com/mix"))
            XCTAssertEqual((playlist.tags?.anyObject() as? Tag)?.label, "summer")
            playlist.rating = nil
            playlist.tags = nil
            XCTAssertNil(playlist.value(forKey: "rating"))
            XCTAssertEqual(playlist.tags?.count, 0, "nil empties the relationship")
        }
    }

    func testGeneratedUnorderedAccessorsKeepInversesAndUndo() throws {
        let context = try context(at: try storeURL())
        context.undoManager = UndoManager()
        try context.performAndWait {
            let playlist = Playlist(context: context)
            let a = Tag(context: context), b = Tag(context: context), c = Tag(context: context)
            try context.save()
            context.undoManager!.removeAllActions()

            playlist.addToTags(a)
            playlist.addToTags(NSSet(array: [b, c]))
            XCTAssertEqual(playlist.tags?.count, 3)
            XCTAssertTrue(b.playlist === playlist, "the inverse is set")
            playlist.removeFromTags(a)
            playlist.removeFromTags(NSSet(array: [c]))
            XCTAssertEqual(playlist.tags, NSSet(array: [b]))
            XCTAssertNil(a.playlist, "the inverse is cleared")
            XCTAssertTrue(playlist.hasChanges)

            context.processPendingChanges()
            context.undoManager!.undo()
            XCTAssertEqual(playlist.tags?.count, 0, "undo takes back the accessors' changes")
            XCTAssertNil(b.playlist)
        }
    }

    /// `primitive<Key>` reads and writes the property itself; a relationship written that way
    /// keeps its inverse as it was, as `setPrimitiveValue(_:forKey:)` does.
    func testPrimitiveAccessorsSetTheValueWithoutInverseMaintenance() throws {
        let context = try context(at: try storeURL())
        try context.performAndWait {
            let tag = Tag(context: context), playlist = Playlist(context: context)
            tag.primitiveLabel = "raw"
            XCTAssertEqual(tag.label, "raw")
            XCTAssertEqual(tag.value(forKey: "label") as? String, "raw")
            tag.primitivePlaylist = playlist
            XCTAssertTrue(tag.playlist === playlist)
            XCTAssertEqual(playlist.tags?.count, 0, "no inverse maintenance through the primitive setter")
            playlist.addToTags(tag)
            XCTAssertEqual(playlist.tags?.count, 1, "the managed side keeps both ends")
            XCTAssertTrue(tag.primitivePlaylist === playlist)
        }
    }

    func testGeneratedOrderedAccessorsKeepTheOrderThroughASave() throws {
        let url = try storeURL()
        let context = try context(at: url)
        try context.performAndWait {
            let playlist = Playlist(context: context)
            playlist.name = "Mix"
            let songs = (0..<6).map { i -> Song in
                let song = Song(context: context)
                song.title = "s\(i)"
                return song
            }
            func titles() -> [String] { (playlist.songs?.array as? [Song] ?? []).map { $0.title ?? "?" } }
            playlist.addToSongs(songs[0])
            playlist.insertIntoSongs(songs[1], at: 0)                                   // s1 s0
            playlist.addToSongs(NSOrderedSet(array: [songs[2], songs[3]]))              // s1 s0 s2 s3
            playlist.insertIntoSongs([songs[4], songs[5]], at: NSIndexSet(indexesIn: NSRange(location: 1, length: 2)))
            XCTAssertEqual(titles(), ["s1", "s4", "s5", "s0", "s2", "s3"])
            playlist.replaceSongs(at: 0, with: songs[1])                                // unchanged
            playlist.removeFromSongs(at: 1)                                             // s1 s5 s0 s2 s3
            XCTAssertNil(songs[4].playlist, "a removed member's inverse is cleared")
            playlist.removeFromSongs(at: NSIndexSet(indexesIn: NSRange(location: 3, length: 2)))  // s1 s5 s0
            playlist.replaceSongs(at: NSIndexSet(index: 2), with: [songs[3]])           // s1 s5 s3
            playlist.removeFromSongs(songs[5])                                          // s1 s3
            playlist.removeFromSongs(NSOrderedSet(array: [songs[1]]))                   // s3
            playlist.addSongs(NSOrderedSet(array: [songs[0]]))                          // s3 s0
            XCTAssertEqual(titles(), ["s3", "s0"])
            XCTAssertTrue(songs[0].playlist === playlist)
            XCTAssertNil(songs[2].playlist)
            try context.save()
            context.reset()
            let fetched = try XCTUnwrap(try context.fetch(NSFetchRequest<Playlist>(entityName: "Playlist")).first)
            XCTAssertEqual((fetched.songs?.array as? [Song] ?? []).map(\.title), ["s3", "s0"])
        }
    }
}

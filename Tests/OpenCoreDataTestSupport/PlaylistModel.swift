import OpenCoreData

/// Playlists whose songs are ordered, and songs in unordered playlists: a many-to-many with one
/// ordered side, shared by the SQLite and PostgreSQL stores' tests of that shape.
///
///     let model = PlaylistModel.make()
///     try PlaylistModel.saveAndEditTheUnorderedSide(in: context)
///     XCTAssertEqual(try PlaylistModel.titlesOfFirst(in: context), ["y", "x", "z"])
public enum PlaylistModel {
    /// The model: `Playlist.songs` (ordered) and its inverse `Song.playlists`; `extraAttribute`,
    /// a string attribute of Song (a later model version).
    public static func make(extraAttribute: String? = nil) -> NSManagedObjectModel {
        let playlist = NSEntityDescription(name: "Playlist"), song = NSEntityDescription(name: "Song")
        let songs = NSRelationshipDescription(), playlists = NSRelationshipDescription()
        songs.name = "songs"; songs.destinationEntity = song; songs.maxCount = 0; songs.isOrdered = true
        playlists.name = "playlists"; playlists.destinationEntity = playlist; playlists.maxCount = 0
        songs.inverseRelationship = playlists; playlists.inverseRelationship = songs
        playlist.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType), songs]
        song.properties = [NSAttributeDescription(name: "title", type: .stringAttributeType), playlists]
            + (extraAttribute.map { [NSAttributeDescription(name: $0, type: .stringAttributeType)] } ?? [])
        let model = NSManagedObjectModel()
        model.entities = [playlist, song]
        return model
    }

    /// Saves playlist "first" with songs y, x, z; then adds x to a new playlist "second" through
    /// x's unordered side and saves again: only x and "second" are saved, not "first".
    /// Call on the context's queue.
    public static func saveAndEditTheUnorderedSide(in context: NSManagedObjectContext) throws {
        let (x, y, z) = (song("x", context), song("y", context), song("z", context))
        let first = NSEntityDescription.insertNewObject(forEntityName: "Playlist", into: context)
        first.setValue("first", forKey: "name")
        first.setValue(NSOrderedSet(array: [y, x, z]), forKey: "songs")
        try context.save()
        let second = NSEntityDescription.insertNewObject(forEntityName: "Playlist", into: context)
        second.setValue("second", forKey: "name")
        x.mutableSetValue(forKey: "playlists").add(second)
        try context.save()
    }

    /// The titles of playlist "first"'s songs, in their order, fetched. Call on the context's queue.
    public static func titlesOfFirst(in context: NSManagedObjectContext) throws -> [String?] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Playlist")
        request.predicate = NSPredicate(format: "name == 'first'")
        let first = try context.fetch(request).first
        return ((first?.value(forKey: "songs") as? NSOrderedSet)?.array ?? []).map { ($0 as? NSManagedObject)?.value(forKey: "title") as? String }
    }

    private static func song(_ title: String, _ context: NSManagedObjectContext) -> NSManagedObject {
        let song = NSEntityDescription.insertNewObject(forEntityName: "Song", into: context)
        song.setValue(title, forKey: "title")
        return song
    }
}

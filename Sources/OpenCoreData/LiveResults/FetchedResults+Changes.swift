import Foundation

/// Tracking: applying one event of the context (its objects-did-change notification) to the
/// results and reporting it to the delegate.
///
/// The work is proportional to the objects the event changed, not to the size of the results:
/// the changed objects leave their sections, each is put back by a binary search among the
/// objects that did not change (which are still in order), and only sections that became empty
/// or new are looked at. Finding an object's row is a scan of its own section.
extension FetchedResults {
    /// One reported object change.
    struct ObjectChange {
        var object: NSManagedObject
        var type: NSFetchedResultsChangeType
        var old: IndexPath?
        var new: IndexPath?
    }

    func contextObjectsDidChange(_ info: [AnyHashable: Any]) {
        guard let delegate, let sections, let request = activeRequest, tracksObjects else { return }
        func objects(_ key: String) -> Set<NSManagedObject> { info[key] as? Set<NSManagedObject> ?? [] }
        let deleted = objects(NSDeletedObjectsKey).union(objects(NSInvalidatedObjectsKey))
        let candidates = objects(NSInsertedObjectsKey).union(objects(NSUpdatedObjectsKey)).union(objects(NSRefreshedObjectsKey))

        // 1. Which members leave, which stay changed, which objects enter.
        var leaving: [NSManagedObject] = [], changing: [NSManagedObject] = [], entering: [NSManagedObject] = []
        for object in deleted where sectionOf[ObjectIdentifier(object)] != nil { leaving.append(object) }
        for object in candidates where !deleted.contains(object) {
            let isMember = sectionOf[ObjectIdentifier(object)] != nil
            let matches = self.matches(object, request)
            if isMember { if matches { changing.append(object) } else { leaving.append(object) } }
            else if matches { entering.append(object) }
        }
        if leaving.isEmpty && changing.isEmpty && entering.isEmpty { return }

        // 2. Where the leaving and changing members were, before the event.
        var sectionIndex: [ObjectIdentifier: Int] = [:]
        for (i, s) in sections.enumerated() { sectionIndex[ObjectIdentifier(s)] = i }
        struct Place { var section: FetchedResultsSection; var path: IndexPath }
        func place(of object: NSManagedObject) -> Place {
            let section = sectionOf[ObjectIdentifier(object)]!
            return Place(section: section, path: IndexPath(item: section.members.firstIndex { $0 === object }!, section: sectionIndex[ObjectIdentifier(section)]!))
        }
        let leavingPlaces = leaving.map(place(of:))
        let changingPlaces = changing.map(place(of:))

        // 3. Take them out; what remains of each section is still in order.
        var removedRows: [ObjectIdentifier: [Int]] = [:]
        for p in leavingPlaces + changingPlaces { removedRows[ObjectIdentifier(p.section), default: []].append(p.path.item) }
        for (key, rows) in removedRows {
            let section = sections[sectionIndex[key]!]
            for row in rows.sorted(by: >) { section.members.remove(at: row) }
        }
        for object in leaving { sectionOf[ObjectIdentifier(object)] = nil }

        // 4. Changed members that keep their place among the unchanged ones are updates; the
        //    others, and those that change section, are moves.
        var newSections: [FetchedResultsSection] = []
        func section(named name: String) -> FetchedResultsSection {
            if let s = sectionByName[name] { return s }
            let s = FetchedResultsSection(name: name, indexTitle: indexTitle(forSectionName: name))
            sectionByName[name] = s
            newSections.append(s)
            return s
        }
        struct Stay { var object: NSManagedObject; var old: Place; var rank: Int }
        var staying: [Stay] = [], moving: [(NSManagedObject, Place)] = []
        for (object, old) in zip(changing, changingPlaces) {
            let target = section(named: sectionName(of: object))
            guard target === old.section else { moving.append((object, old)); continue }
            let rank = old.path.item - removedRows[ObjectIdentifier(old.section)]!.count { $0 < old.path.item }
            if fits(object, at: rank, in: target.members) { staying.append(Stay(object: object, old: old, rank: rank)) }
            else { moving.append((object, old)) }
        }
        // Updates that share a gap go back in their old order, unless that order is now wrong:
        // then the gap is sorted and those whose place in it changed are moves.
        var movedWithinGap = Set<ObjectIdentifier>()
        let gaps = Dictionary(grouping: staying) { GapKey(section: ObjectIdentifier($0.old.section), rank: $0.rank) }
        for (_, gap) in gaps.sorted(by: { $0.key.rank > $1.key.rank }) {
            let oldOrder = gap.sorted { $0.old.path.item < $1.old.path.item }
            let newOrder = oldOrder.enumerated().sorted { a, b in
                let r = compare(a.element.object, b.element.object)
                return r == .orderedSame ? a.offset < b.offset : r == .orderedAscending
            }.map(\.element)
            for (i, stay) in newOrder.enumerated() where stay.object !== oldOrder[i].object { movedWithinGap.insert(ObjectIdentifier(stay.object)) }
            for stay in newOrder.reversed() { stay.old.section.members.insert(stay.object, at: gap[0].rank) }
        }
        // Moves and new members go where a binary search among the others puts them.
        for (object, _) in moving { insertSorted(object, into: section(named: sectionName(of: object))) }
        for object in entering { insertSorted(object, into: section(named: sectionName(of: object))) }

        // 5. The sections after the event: empty ones go, new ones take their sorted place.
        //    (Without a section key path the one section stays, empty or not.)
        let emptied = sectionNameKeyPath == nil ? [] : sections.enumerated().filter { $0.element.members.isEmpty }
        for (_, s) in emptied { sectionByName[s.name] = nil }
        var finalSections = sectionNameKeyPath == nil ? sections : sections.filter { !$0.members.isEmpty }
        for s in newSections where !s.members.isEmpty {
            var low = 0, high = finalSections.count
            while low < high {
                let mid = (low + high) / 2
                if compare(s.members[0], finalSections[mid].members[0]) == .orderedAscending { high = mid } else { low = mid + 1 }
            }
            finalSections.insert(s, at: low)
        }
        for s in newSections where s.members.isEmpty { sectionByName[s.name] = nil }
        var finalIndex: [ObjectIdentifier: Int] = [:]
        for (i, s) in finalSections.enumerated() { finalIndex[ObjectIdentifier(s)] = i }
        func finalPath(of object: NSManagedObject) -> IndexPath {
            let section = sectionOf[ObjectIdentifier(object)]!
            return IndexPath(item: section.members.firstIndex { $0 === object }!, section: finalIndex[ObjectIdentifier(section)]!)
        }

        // 6. The report, in index order within each kind.
        var changes: [ObjectChange] = []
        for (object, old) in zip(leaving, leavingPlaces) { changes.append(ObjectChange(object: object, type: .delete, old: old.path, new: nil)) }
        for object in entering { changes.append(ObjectChange(object: object, type: .insert, old: nil, new: finalPath(of: object))) }
        for (object, old) in moving { changes.append(ObjectChange(object: object, type: .move, old: old.path, new: finalPath(of: object))) }
        for stay in staying {
            let type: NSFetchedResultsChangeType = movedWithinGap.contains(ObjectIdentifier(stay.object)) ? .move : .update
            changes.append(ObjectChange(object: stay.object, type: type, old: stay.old.path, new: finalPath(of: stay.object)))
        }
        changes.sort { a, b in
            a.type.rawValue != b.type.rawValue ? a.type.rawValue < b.type.rawValue : (a.old ?? a.new!) < (b.old ?? b.new!)
        }
        let sectionChanges: [(FetchedResultsSection, Int, NSFetchedResultsChangeType)] =
            emptied.map { ($0.element, $0.offset, .delete) }
            + newSections.filter { !$0.members.isEmpty }.map { ($0, finalIndex[ObjectIdentifier($0)]!, .insert) }.sorted { $0.1 < $1.1 }
        setSections(finalSections)
        report(changes, sectionChanges, to: delegate)
    }

    private struct GapKey: Hashable { var section: ObjectIdentifier; var rank: Int }

    private func report(_ changes: [ObjectChange], _ sectionChanges: [(FetchedResultsSection, Int, NSFetchedResultsChangeType)],
                        to delegate: any NSFetchedResultsControllerDelegate) {
        guard let controller = erasedController else { return }
        if sectionNameKeyPath == nil, delegateTakesDifferences, let difference = difference(of: changes) {
            delegate.controller(controller, didChangeContentWith: difference)
            if delegateTakesDifferences { return }
        }
        delegate.controllerWillChangeContent(controller)
        for (section, index, type) in sectionChanges { delegate.controller(controller, didChange: section, atSectionIndex: index, for: type) }
        for c in changes { delegate.controller(controller, didChange: c.object, at: c.old, for: c.type, newIndexPath: c.new) }
        delegate.controllerDidChangeContent(controller)
    }

    /// The event as a difference of object IDs (one section: rows are offsets); updates in
    /// place are not differences.
    private func difference(of changes: [ObjectChange]) -> CollectionDifference<NSManagedObjectID>? {
        var steps: [CollectionDifference<NSManagedObjectID>.Change] = []
        for c in changes {
            let id = c.object.objectID
            switch c.type {
            case .delete: steps.append(.remove(offset: c.old!.item, element: id, associatedWith: nil))
            case .insert: steps.append(.insert(offset: c.new!.item, element: id, associatedWith: nil))
            case .move:
                steps.append(.remove(offset: c.old!.item, element: id, associatedWith: c.new!.item))
                steps.append(.insert(offset: c.new!.item, element: id, associatedWith: c.old!.item))
            case .update: continue
            }
        }
        return CollectionDifference(steps)
    }

    // MARK: - Order and membership

    /// Whether `object` belongs in the results now: of the entity (or a subentity when the
    /// request includes them), not deleted, and matching the predicate.
    func matches(_ object: NSManagedObject, _ request: NSFetchRequest<NSFetchRequestResult>) -> Bool {
        guard !object.isDeleted, let target = request.entityName ?? request.entity?.name else { return false }
        var entity: NSEntityDescription? = object.entity
        while let e = entity, e.name != target {
            entity = request.includesSubentities ? e.superentity : nil
        }
        guard entity != nil else { return false }
        return request.predicate?.evaluate(with: object) ?? true
    }

    func sectionName(of object: NSManagedObject) -> String {
        guard let sectionNameKeyPath else { return "" }
        return Self.sectionName(of: object, keyPath: sectionNameKeyPath)
    }

    /// The order of the sort descriptors of the last fetch.
    func compare(_ a: NSManagedObject, _ b: NSManagedObject) -> ComparisonResult {
        for descriptor in activeRequest?.sortDescriptors ?? [] {
            let r = descriptor.compare(a, to: b)
            if r != .orderedSame { return r }
        }
        return .orderedSame
    }

    /// Whether `object` is in order between `members[rank - 1]` and `members[rank]`.
    private func fits(_ object: NSManagedObject, at rank: Int, in members: [NSManagedObject]) -> Bool {
        if rank > 0, compare(members[rank - 1], object) == .orderedDescending { return false }
        if rank < members.count, compare(object, members[rank]) == .orderedDescending { return false }
        return true
    }

    /// Puts `object` after the members it does not sort before (a binary search; the object's
    /// own sort values are read once).
    private func insertSorted(_ object: NSManagedObject, into section: FetchedResultsSection) {
        let descriptors = activeRequest?.sortDescriptors ?? []
        let keys = descriptors.map { $0.sortValue(of: object) }
        func sortsBefore(_ other: NSManagedObject) -> Bool {
            for (d, descriptor) in descriptors.enumerated() {
                let r = descriptor.compareSortValues(keys[d], descriptor.sortValue(of: other))
                if r != .orderedSame { return r == .orderedAscending }
            }
            return false
        }
        var low = 0, high = section.members.count
        while low < high {
            let mid = (low + high) / 2
            if sortsBefore(section.members[mid]) { high = mid } else { low = mid + 1 }
        }
        section.members.insert(object, at: low)
        sectionOf[ObjectIdentifier(object)] = section
    }
}

import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

// MARK: - Fixtures

/// A value whose setter registers its own inverse, the canonical pattern that
/// makes redo work: undoing calls the setter, which registers the redo.
private final class Counter {
    let undoManager: UndoManager
    private(set) var value = 0

    init(_ undoManager: UndoManager) {
        self.undoManager = undoManager
    }

    func set(_ newValue: Int) {
        let old = value
        undoManager.registerUndo(withTarget: self) { counter in
            counter.set(old)
        }
        value = newValue
    }
}

/// Records what undo handlers ran, in order.
private final class Log {
    var entries: [String] = []
}

/// Collects notifications posted by one undo manager. The observer closures
/// must be `@Sendable`, hence the lock.
private final class NotificationRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Notification] = []
    private var tokens: [NSObjectProtocol] = []

    static let allNames: [Notification.Name] = [
        .NSUndoManagerCheckpoint,
        .NSUndoManagerWillUndoChange,
        .NSUndoManagerDidUndoChange,
        .NSUndoManagerWillRedoChange,
        .NSUndoManagerDidRedoChange,
        .NSUndoManagerDidOpenUndoGroup,
        .NSUndoManagerWillCloseUndoGroup,
        .NSUndoManagerDidCloseUndoGroup,
    ]

    init(_ manager: UndoManager, names: [Notification.Name] = NotificationRecorder.allNames) {
        for name in names {
            let token = NotificationCenter.default.addObserver(
                forName: name, object: manager, queue: nil)
            { [unowned self] notification in
                self.lock.lock()
                self.recorded.append(notification)
                self.lock.unlock()
            }
            tokens.append(token)
        }
    }

    deinit {
        for token in tokens {
            NotificationCenter.default.removeObserver(token)
        }
    }

    var notifications: [Notification] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    /// Short names ("Checkpoint", "DidOpenUndoGroup", ...) for readable
    /// assertions.
    var names: [String] {
        notifications.map { notification in
            notification.name.rawValue
                .replacingOccurrences(of: "NSUndoManager", with: "")
                .replacingOccurrences(of: "Notification", with: "")
        }
    }

    func reset() {
        lock.lock()
        recorded.removeAll()
        lock.unlock()
    }
}

// MARK: - Tests

final class UndoManagerTests: XCTestCase {
    // MARK: Undo and redo

    func testUndoRevertsAndRedoReappliesAChange() {
        let manager = UndoManager()
        let counter = Counter(manager)

        counter.set(1)
        manager.closeEventGroupIfNeeded()
        manager.undo()
        XCTAssertEqual(counter.value, 0)

        manager.redo()
        XCTAssertEqual(counter.value, 1)

        manager.undo()
        XCTAssertEqual(counter.value, 0)
    }

    func testDocumentationExample() {
        final class Document {
            let undoManager = UndoManager()
            var title = "Untitled" {
                didSet {
                    undoManager.registerUndo(withTarget: self) { [old = oldValue] document in
                        document.title = old
                    }
                    undoManager.setActionName("Rename")
                }
            }
        }

        let document = Document()
        document.title = "Draft"
        XCTAssertEqual(document.undoManager.undoMenuItemTitle, "Undo Rename")
        document.undoManager.undo()
        XCTAssertEqual(document.title, "Untitled")
        XCTAssertEqual(document.undoManager.redoMenuItemTitle, "Redo Rename")
        document.undoManager.redo()
        XCTAssertEqual(document.title, "Draft")
    }

    func testCanUndoAndCanRedoTransitions() {
        let manager = UndoManager()
        let counter = Counter(manager)
        XCTAssertFalse(manager.canUndo)
        XCTAssertFalse(manager.canRedo)

        counter.set(1)
        // The open event group already counts: undo() would close and undo it.
        XCTAssertTrue(manager.canUndo)
        XCTAssertFalse(manager.canRedo)

        manager.closeEventGroupIfNeeded()
        XCTAssertTrue(manager.canUndo)

        manager.undo()
        XCTAssertFalse(manager.canUndo)
        XCTAssertTrue(manager.canRedo)

        manager.redo()
        XCTAssertTrue(manager.canUndo)
        XCTAssertFalse(manager.canRedo)
    }

    func testUndoAndRedoWithNothingToDoAreNoOps() {
        let manager = UndoManager()
        let recorder = NotificationRecorder(manager)
        manager.undo()
        manager.redo()
        XCTAssertFalse(manager.canUndo)
        XCTAssertFalse(manager.canRedo)
        XCTAssertFalse(recorder.names.contains("WillUndoChange"))
        XCTAssertFalse(recorder.names.contains("WillRedoChange"))
    }

    func testGroupIsUndoneInReverseOrderOfRegistration() {
        let manager = UndoManager()
        let log = Log()
        manager.beginUndoGrouping()
        for name in ["A", "B", "C"] {
            manager.registerUndo(withTarget: log) { $0.entries.append(name) }
        }
        manager.endUndoGrouping()

        manager.undo()
        XCTAssertEqual(log.entries, ["C", "B", "A"])
    }

    func testRedoGroupIsAlsoPerformedInReverseOrderOfRegistration() {
        let manager = UndoManager()
        let log = Log()
        manager.beginUndoGrouping()
        for name in ["A", "B", "C"] {
            manager.registerUndo(withTarget: log) { log in
                log.entries.append("undo \(name)")
                manager.registerUndo(withTarget: log) { $0.entries.append("redo \(name)") }
            }
        }
        manager.endUndoGrouping()

        manager.undo()
        // Redo registrations happened in the order C, B, A, so redo runs
        // them A, B, C: the original order of the changes.
        manager.redo()
        XCTAssertEqual(log.entries, [
            "undo C", "undo B", "undo A",
            "redo A", "redo B", "redo C",
        ])
    }

    func testRegistrationsWhileUndoingGoToTheRedoStackAndWhileRedoingToTheUndoStack() {
        let manager = UndoManager()
        let counter = Counter(manager)
        counter.set(1)
        manager.closeEventGroupIfNeeded()
        counter.set(2)
        manager.closeEventGroupIfNeeded()

        manager.undo()
        manager.undo()
        XCTAssertEqual(counter.value, 0)
        XCTAssertFalse(manager.canUndo)

        // Redoing registers onto the undo stack, without clearing the rest
        // of the redo stack.
        manager.redo()
        XCTAssertEqual(counter.value, 1)
        XCTAssertTrue(manager.canUndo)
        XCTAssertTrue(manager.canRedo)

        manager.redo()
        XCTAssertEqual(counter.value, 2)
        XCTAssertFalse(manager.canRedo)

        manager.undo()
        XCTAssertEqual(counter.value, 1)
        manager.undo()
        XCTAssertEqual(counter.value, 0)
    }

    func testNewRegistrationClearsTheRedoStack() {
        let manager = UndoManager()
        let counter = Counter(manager)
        counter.set(1)
        manager.undo()
        XCTAssertTrue(manager.canRedo)

        counter.set(5)
        XCTAssertFalse(manager.canRedo)
        manager.closeEventGroupIfNeeded()
        manager.redo()
        XCTAssertEqual(counter.value, 5)
    }

    func testUndoHandlerThatRegistersNothingLeavesNothingToRedo() {
        let manager = UndoManager()
        let log = Log()
        manager.registerUndo(withTarget: log) { $0.entries.append("undone") }
        manager.undo()
        XCTAssertEqual(log.entries, ["undone"])
        XCTAssertFalse(manager.canRedo, "the empty redo group must be discarded")
    }

    func testIsUndoingAndIsRedoingDuringHandlers() {
        let manager = UndoManager()
        var observed: [(undoing: Bool, redoing: Bool, level: Int)] = []
        let log = Log()

        manager.registerUndo(withTarget: log) { log in
            observed.append((manager.isUndoing, manager.isRedoing, manager.groupingLevel))
            manager.registerUndo(withTarget: log) { _ in
                observed.append((manager.isUndoing, manager.isRedoing, manager.groupingLevel))
            }
        }
        XCTAssertFalse(manager.isUndoing)
        manager.undo()
        XCTAssertFalse(manager.isUndoing)
        manager.redo()
        XCTAssertFalse(manager.isRedoing)

        XCTAssertEqual(observed.count, 2)
        XCTAssertTrue(observed[0].undoing)
        XCTAssertFalse(observed[0].redoing)
        XCTAssertEqual(observed[0].level, 1, "the redo group is open while undoing")
        XCTAssertFalse(observed[1].undoing)
        XCTAssertTrue(observed[1].redoing)
        XCTAssertEqual(observed[1].level, 1)
    }

    // MARK: Grouping by event

    func testEventGroupCollectsRegistrationsUntilClosed() {
        let manager = UndoManager()
        let counter = Counter(manager)
        XCTAssertEqual(manager.groupingLevel, 0)

        counter.set(1)
        XCTAssertEqual(manager.groupingLevel, 1, "first registration opens a group")
        counter.set(2)
        XCTAssertEqual(manager.groupingLevel, 1)
        manager.closeEventGroupIfNeeded()
        XCTAssertEqual(manager.groupingLevel, 0)

        counter.set(3)
        manager.closeEventGroupIfNeeded()

        manager.undo()
        XCTAssertEqual(counter.value, 2)
        manager.undo()
        XCTAssertEqual(counter.value, 0, "1 and 2 were one event, undone together")
    }

    func testUndoClosesTheOpenTopLevelGroupFirst() {
        let manager = UndoManager()
        let counter = Counter(manager)
        counter.set(1)
        counter.set(2)
        XCTAssertEqual(manager.groupingLevel, 1)

        manager.undo()
        XCTAssertEqual(manager.groupingLevel, 0)
        XCTAssertEqual(counter.value, 0)
        XCTAssertFalse(manager.canUndo)
    }

    func testUndoClosesAnExplicitTopLevelGroupToo() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let counter = Counter(manager)
        manager.beginUndoGrouping()
        counter.set(1)

        manager.undo()
        XCTAssertEqual(manager.groupingLevel, 0)
        XCTAssertEqual(counter.value, 0)
    }

    func testCloseEventGroupIfNeededLeavesExplicitGroupsAlone() {
        let manager = UndoManager()
        let counter = Counter(manager)

        manager.beginUndoGrouping()
        counter.set(1)
        manager.closeEventGroupIfNeeded()
        XCTAssertEqual(manager.groupingLevel, 1)
        manager.endUndoGrouping()
        XCTAssertEqual(manager.groupingLevel, 0)

        // Nested explicit group inside an event group: not closed either.
        counter.set(2)
        manager.beginUndoGrouping()
        manager.closeEventGroupIfNeeded()
        XCTAssertEqual(manager.groupingLevel, 2)
        manager.endUndoGrouping()
        manager.closeEventGroupIfNeeded()
        XCTAssertEqual(manager.groupingLevel, 0)
    }

    func testAGroupOpenedAfterUndoClosedTheEventGroupIsNotAnEventGroup() {
        let manager = UndoManager()
        let counter = Counter(manager)
        counter.set(1)
        manager.undo() // closes the event group, then undoes it

        manager.beginUndoGrouping()
        counter.set(2)
        manager.closeEventGroupIfNeeded()
        XCTAssertEqual(manager.groupingLevel, 1, "the explicit group must stay open")
        manager.endUndoGrouping()
    }

    func testNoAutomaticGroupWhenGroupsByEventIsFalse() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        XCTAssertFalse(manager.groupsByEvent)
        let counter = Counter(manager)

        manager.beginUndoGrouping()
        counter.set(1)
        manager.closeEventGroupIfNeeded()
        XCTAssertEqual(manager.groupingLevel, 1, "no event group to close")
        manager.endUndoGrouping()

        manager.undo()
        XCTAssertEqual(counter.value, 0)
    }

    // MARK: Nested groups

    func testNestedGroupsAreUndoneAsOneTopLevelGroup() {
        let manager = UndoManager()
        let log = Log()
        manager.beginUndoGrouping()
        manager.registerUndo(withTarget: log) { $0.entries.append("A") }
        manager.beginUndoGrouping()
        XCTAssertEqual(manager.groupingLevel, 2)
        manager.registerUndo(withTarget: log) { $0.entries.append("B1") }
        manager.registerUndo(withTarget: log) { $0.entries.append("B2") }
        manager.endUndoGrouping()
        manager.registerUndo(withTarget: log) { $0.entries.append("C") }
        manager.endUndoGrouping()
        XCTAssertEqual(manager.groupingLevel, 0)

        manager.undo()
        XCTAssertEqual(log.entries, ["C", "B2", "B1", "A"])
        XCTAssertFalse(manager.canUndo)
    }

    func testUndoNestedGroupUndoesOnlyTheLastClosedNestedGroup() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let log = Log()
        manager.beginUndoGrouping()
        manager.registerUndo(withTarget: log) { $0.entries.append("outer") }
        manager.beginUndoGrouping()
        manager.registerUndo(withTarget: log) { $0.entries.append("inner 1") }
        manager.registerUndo(withTarget: log) { $0.entries.append("inner 2") }
        manager.endUndoGrouping()

        manager.undoNestedGroup()
        XCTAssertEqual(log.entries, ["inner 2", "inner 1"])
        XCTAssertEqual(manager.groupingLevel, 1, "the outer group stays open")

        manager.endUndoGrouping()
        manager.undo()
        XCTAssertEqual(log.entries, ["inner 2", "inner 1", "outer"])
    }

    func testUndoNestedGroupWithNoOpenGroupUndoesTheLastTopLevelGroup() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let log = Log()
        for name in ["first", "second"] {
            manager.beginUndoGrouping()
            manager.registerUndo(withTarget: log) { $0.entries.append(name) }
            manager.endUndoGrouping()
        }
        manager.undoNestedGroup()
        XCTAssertEqual(log.entries, ["second"])
        manager.undoNestedGroup()
        XCTAssertEqual(log.entries, ["second", "first"])
    }

    func testEmptyGroupsAreDiscardedOnClose() {
        let manager = UndoManager()
        let log = Log()

        manager.beginUndoGrouping()
        manager.registerUndo(withTarget: log) { $0.entries.append("kept") }
        manager.beginUndoGrouping()
        manager.endUndoGrouping()
        manager.endUndoGrouping()

        manager.beginUndoGrouping()
        manager.endUndoGrouping()

        // Had the empty top-level group been kept, this undo would revert
        // nothing.
        manager.undo()
        XCTAssertEqual(log.entries, ["kept"])
        XCTAssertFalse(manager.canUndo)
    }

    // MARK: Levels of undo

    func testLevelsOfUndoDropsTheOldestGroups() {
        let manager = UndoManager()
        XCTAssertEqual(manager.levelsOfUndo, 0)
        manager.levelsOfUndo = 2
        let counter = Counter(manager)
        for value in 1...3 {
            counter.set(value)
            manager.closeEventGroupIfNeeded()
        }

        manager.undo()
        manager.undo()
        XCTAssertEqual(counter.value, 1)
        XCTAssertFalse(manager.canUndo, "the group setting 1 was dropped")
        manager.undo()
        XCTAssertEqual(counter.value, 1)
    }

    func testLoweringLevelsOfUndoTrimsImmediately() {
        let manager = UndoManager()
        let counter = Counter(manager)
        for value in 1...3 {
            counter.set(value)
            manager.closeEventGroupIfNeeded()
        }
        manager.levelsOfUndo = 1

        manager.undo()
        XCTAssertEqual(counter.value, 2)
        XCTAssertFalse(manager.canUndo)
    }

    func testZeroLevelsOfUndoMeansUnlimited() {
        let manager = UndoManager()
        let counter = Counter(manager)
        for value in 1...200 {
            counter.set(value)
            manager.closeEventGroupIfNeeded()
        }
        while manager.canUndo {
            manager.undo()
        }
        XCTAssertEqual(counter.value, 0)
    }

    func testDroppedGroupsReleaseTheirTargets() {
        let manager = UndoManager()
        manager.levelsOfUndo = 1
        weak var dropped: Log?
        do {
            let log = Log()
            dropped = log
            manager.registerUndo(withTarget: log) { _ in }
            manager.closeEventGroupIfNeeded()
        }
        XCTAssertNotNil(dropped)
        manager.registerUndo(withTarget: Log()) { _ in }
        manager.closeEventGroupIfNeeded()
        XCTAssertNil(dropped)
    }

    // MARK: Enabling registration

    func testRegistrationIsIgnoredWhileDisabledAndDisablingNests() {
        let manager = UndoManager()
        let counter = Counter(manager)
        XCTAssertTrue(manager.isUndoRegistrationEnabled)

        manager.disableUndoRegistration()
        manager.disableUndoRegistration()
        XCTAssertFalse(manager.isUndoRegistrationEnabled)
        counter.set(1)
        XCTAssertEqual(manager.groupingLevel, 0, "an ignored registration opens no group")
        XCTAssertFalse(manager.canUndo)

        manager.enableUndoRegistration()
        XCTAssertFalse(manager.isUndoRegistrationEnabled, "one disable is still in effect")
        counter.set(2)
        XCTAssertFalse(manager.canUndo)

        manager.enableUndoRegistration()
        XCTAssertTrue(manager.isUndoRegistrationEnabled)
        counter.set(3)
        XCTAssertTrue(manager.canUndo)
        manager.undo()
        XCTAssertEqual(counter.value, 2)
    }

    func testDisabledRegistrationDuringUndoLeavesNothingToRedo() {
        let manager = UndoManager()
        let counter = Counter(manager)
        counter.set(1)
        manager.closeEventGroupIfNeeded()

        manager.disableUndoRegistration()
        manager.undo()
        manager.enableUndoRegistration()
        XCTAssertEqual(counter.value, 0)
        XCTAssertFalse(manager.canRedo)
    }

    // MARK: Removing actions

    func testRemoveAllActionsClearsBothStacksAndReenablesRegistration() {
        let manager = UndoManager()
        let counter = Counter(manager)
        counter.set(1)
        manager.closeEventGroupIfNeeded()
        counter.set(2)
        manager.closeEventGroupIfNeeded()
        manager.undo()
        XCTAssertTrue(manager.canUndo)
        XCTAssertTrue(manager.canRedo)

        manager.disableUndoRegistration()
        manager.removeAllActions()
        XCTAssertFalse(manager.canUndo)
        XCTAssertFalse(manager.canRedo)
        XCTAssertTrue(manager.isUndoRegistrationEnabled)
    }

    func testRemoveAllActionsKeepsOpenGroupsBalanced() {
        let manager = UndoManager()
        let counter = Counter(manager)
        manager.beginUndoGrouping()
        counter.set(1)
        manager.removeAllActions()
        XCTAssertEqual(manager.groupingLevel, 1)
        XCTAssertFalse(manager.canUndo)
        manager.endUndoGrouping()
        XCTAssertFalse(manager.canUndo, "the emptied group is discarded on close")
    }

    func testRemoveAllActionsWithTarget() {
        let manager = UndoManager()
        let kept = Log()
        let removed = Log()

        manager.registerUndo(withTarget: kept) { $0.entries.append("kept 1") }
        manager.registerUndo(withTarget: removed) { $0.entries.append("removed 1") }
        manager.closeEventGroupIfNeeded()
        manager.registerUndo(withTarget: removed) { $0.entries.append("removed 2") }
        manager.closeEventGroupIfNeeded()
        manager.registerUndo(withTarget: removed) { $0.entries.append("removed 3") }

        manager.disableUndoRegistration()
        manager.removeAllActions(withTarget: removed)
        XCTAssertFalse(manager.isUndoRegistrationEnabled, "does not re-enable")
        manager.enableUndoRegistration()

        // The open group and the second group held only `removed` actions:
        // the first undo reaches the first group.
        manager.undo()
        XCTAssertEqual(kept.entries, ["kept 1"])
        XCTAssertEqual(removed.entries, [])
        XCTAssertFalse(manager.canUndo)
    }

    func testRemoveAllActionsWithTargetReachesTheRedoStack() {
        let manager = UndoManager()
        let counter = Counter(manager)
        counter.set(1)
        manager.undo()
        XCTAssertTrue(manager.canRedo)

        manager.removeAllActions(withTarget: counter)
        XCTAssertFalse(manager.canRedo)
    }

    // MARK: Memory

    func testUndoManagerRetainsTargetsUntilActionsAreRemoved() {
        let manager = UndoManager()
        weak var weakTarget: Log?
        do {
            let log = Log()
            weakTarget = log
            manager.registerUndo(withTarget: log) { $0.entries.append("undone") }
        }
        XCTAssertNotNil(weakTarget, "the undo manager keeps the target alive")
        manager.removeAllActions()
        XCTAssertNil(weakTarget)
    }

    func testPerformedActionsReleaseTheirTargets() {
        let manager = UndoManager()
        weak var weakTarget: Log?
        do {
            let log = Log()
            weakTarget = log
            manager.registerUndo(withTarget: log) { _ in }
        }
        manager.undo()
        XCTAssertNil(weakTarget)
    }

    // MARK: Action names

    func testActionNamesAndMenuTitles() {
        let manager = UndoManager()
        let counter = Counter(manager)
        XCTAssertEqual(manager.undoActionName, "")
        XCTAssertEqual(manager.undoMenuItemTitle, "Undo")
        XCTAssertEqual(manager.redoMenuItemTitle, "Redo")

        counter.set(1)
        manager.setActionName("Rename")
        XCTAssertEqual(manager.undoActionName, "Rename")
        XCTAssertEqual(manager.undoMenuItemTitle, "Undo Rename")
        manager.closeEventGroupIfNeeded()
        XCTAssertEqual(manager.undoActionName, "Rename")

        counter.set(2)
        manager.setActionName("Increment")
        manager.closeEventGroupIfNeeded()
        XCTAssertEqual(manager.undoMenuItemTitle, "Undo Increment")

        manager.undo()
        XCTAssertEqual(manager.undoActionName, "Rename")
        XCTAssertEqual(manager.redoActionName, "Increment")
        XCTAssertEqual(manager.redoMenuItemTitle, "Redo Increment")

        manager.undo()
        XCTAssertEqual(manager.undoActionName, "")
        XCTAssertEqual(manager.undoMenuItemTitle, "Undo")
        XCTAssertEqual(manager.redoActionName, "Rename")

        manager.redo()
        XCTAssertEqual(manager.undoActionName, "Rename", "the name travels back to the undo stack")
        XCTAssertEqual(manager.redoActionName, "Increment")
    }

    func testSetActionNameWithoutOpenGroupNamesTheLastGroupAndEmptyNameRemovesIt() {
        let manager = UndoManager()
        let counter = Counter(manager)
        counter.set(1)
        manager.closeEventGroupIfNeeded()

        manager.setActionName("Late")
        XCTAssertEqual(manager.undoActionName, "Late")
        manager.setActionName("")
        XCTAssertEqual(manager.undoActionName, "")
        XCTAssertEqual(manager.undoMenuItemTitle, "Undo")
    }

    func testMenuTitleForActionName() {
        let manager = UndoManager()
        XCTAssertEqual(manager.undoMenuTitle(forUndoActionName: "Typing"), "Undo Typing")
        XCTAssertEqual(manager.undoMenuTitle(forUndoActionName: ""), "Undo")
        XCTAssertEqual(manager.redoMenuTitle(forUndoActionName: "Typing"), "Redo Typing")
        XCTAssertEqual(manager.redoMenuTitle(forUndoActionName: ""), "Redo")
    }

    func testMenuItemTitlesUseOverriddenFormatting() {
        final class FrenchUndoManager: UndoManager {
            override func undoMenuTitle(forUndoActionName actionName: String) -> String {
                actionName.isEmpty ? "Annuler" : "Annuler \(actionName)"
            }
        }
        let manager = FrenchUndoManager()
        manager.registerUndo(withTarget: Log()) { _ in }
        manager.setActionName("Frappe")
        XCTAssertEqual(manager.undoMenuItemTitle, "Annuler Frappe")
    }

    // MARK: Discardable actions

    func testDiscardableActions() {
        let manager = UndoManager()
        let recorder = NotificationRecorder(manager, names: [.NSUndoManagerWillCloseUndoGroup])
        let log = Log()

        manager.registerUndo(withTarget: log) { log in
            manager.registerUndo(withTarget: log) { _ in }
            manager.setActionIsDiscardable(true)
        }
        XCTAssertFalse(manager.undoActionIsDiscardable)
        manager.setActionIsDiscardable(true)
        XCTAssertTrue(manager.undoActionIsDiscardable)
        manager.closeEventGroupIfNeeded()
        XCTAssertTrue(manager.undoActionIsDiscardable)

        let userInfo = recorder.notifications.last?.userInfo
        XCTAssertEqual((userInfo?[NSUndoManagerGroupIsDiscardableKey] as? NSNumber)?.boolValue, true)

        manager.undo()
        XCTAssertFalse(manager.undoActionIsDiscardable)
        XCTAssertTrue(manager.redoActionIsDiscardable)

        // One non-discardable action makes the whole group non-discardable.
        recorder.reset()
        manager.registerUndo(withTarget: log) { _ in }
        manager.setActionIsDiscardable(true)
        manager.registerUndo(withTarget: log) { _ in }
        manager.closeEventGroupIfNeeded()
        XCTAssertFalse(manager.undoActionIsDiscardable)
        XCTAssertNil(recorder.notifications.last?.userInfo?[NSUndoManagerGroupIsDiscardableKey])
    }

    // MARK: Notifications

    func testNotificationNamesMatchApple() {
        XCTAssertEqual(Notification.Name.NSUndoManagerCheckpoint.rawValue, "NSUndoManagerCheckpointNotification")
        XCTAssertEqual(Notification.Name.NSUndoManagerWillUndoChange.rawValue, "NSUndoManagerWillUndoChangeNotification")
        XCTAssertEqual(Notification.Name.NSUndoManagerDidUndoChange.rawValue, "NSUndoManagerDidUndoChangeNotification")
        XCTAssertEqual(Notification.Name.NSUndoManagerWillRedoChange.rawValue, "NSUndoManagerWillRedoChangeNotification")
        XCTAssertEqual(Notification.Name.NSUndoManagerDidRedoChange.rawValue, "NSUndoManagerDidRedoChangeNotification")
        XCTAssertEqual(Notification.Name.NSUndoManagerDidOpenUndoGroup.rawValue, "NSUndoManagerDidOpenUndoGroupNotification")
        XCTAssertEqual(Notification.Name.NSUndoManagerWillCloseUndoGroup.rawValue, "NSUndoManagerWillCloseUndoGroupNotification")
        XCTAssertEqual(Notification.Name.NSUndoManagerDidCloseUndoGroup.rawValue, "NSUndoManagerDidCloseUndoGroupNotification")
        XCTAssertEqual(NSUndoManagerGroupIsDiscardableKey, "NSUndoManagerGroupIsDiscardableKey")
    }

    func testNotificationsPostedByExplicitGrouping() {
        let manager = UndoManager()
        let recorder = NotificationRecorder(manager)
        manager.beginUndoGrouping()
        manager.registerUndo(withTarget: Log()) { _ in }
        manager.endUndoGrouping()
        XCTAssertEqual(recorder.names, [
            "Checkpoint", "DidOpenUndoGroup",
            "Checkpoint", "WillCloseUndoGroup", "DidCloseUndoGroup",
        ])
        XCTAssertTrue(recorder.notifications.allSatisfy { $0.object as AnyObject === manager })
    }

    func testNotificationsPostedByEventGrouping() {
        let manager = UndoManager()
        let recorder = NotificationRecorder(manager)
        manager.registerUndo(withTarget: Log()) { _ in }
        XCTAssertEqual(recorder.names, ["DidOpenUndoGroup"])
        manager.closeEventGroupIfNeeded()
        XCTAssertEqual(recorder.names, [
            "DidOpenUndoGroup",
            "Checkpoint", "WillCloseUndoGroup", "DidCloseUndoGroup",
        ])
    }

    func testNotificationsPostedByUndoAndRedo() {
        let manager = UndoManager()
        let counter = Counter(manager)
        counter.set(1)
        manager.closeEventGroupIfNeeded()
        let recorder = NotificationRecorder(manager)

        manager.undo()
        XCTAssertEqual(recorder.names, [
            "Checkpoint", "WillUndoChange",
            "DidOpenUndoGroup", "Checkpoint", "WillCloseUndoGroup", "DidCloseUndoGroup",
            "DidUndoChange",
        ])

        recorder.reset()
        manager.redo()
        XCTAssertEqual(recorder.names, [
            "Checkpoint", "WillRedoChange",
            "DidOpenUndoGroup", "Checkpoint", "WillCloseUndoGroup", "DidCloseUndoGroup",
            "DidRedoChange",
        ])
    }

    func testNotificationsPostedWhenUndoClosesTheEventGroup() {
        let manager = UndoManager()
        let counter = Counter(manager)
        counter.set(1)
        let recorder = NotificationRecorder(manager)
        manager.undo()
        XCTAssertEqual(Array(recorder.names.prefix(5)), [
            "Checkpoint", "WillCloseUndoGroup", "DidCloseUndoGroup",
            "Checkpoint", "WillUndoChange",
        ])
    }

    func testCanRedoPostsACheckpoint() {
        let manager = UndoManager()
        let recorder = NotificationRecorder(manager, names: [.NSUndoManagerCheckpoint])
        _ = manager.canRedo
        XCTAssertEqual(recorder.names, ["Checkpoint"])
    }

    // MARK: Checkpoint observers (how a managed object context flushes)

    func testChangesFlushedOnTheClosingCheckpointLandInTheClosingGroup() {
        let manager = UndoManager()
        let counter = Counter(manager)
        manager.beginUndoGrouping()
        counter.set(1)

        // Installed after beginUndoGrouping(), whose checkpoint would
        // otherwise flush first.
        let pending = PendingChange(counter: counter, value: 7)
        let token = NotificationCenter.default.addObserver(
            forName: .NSUndoManagerCheckpoint, object: manager, queue: nil)
        { _ in pending.flush() }
        defer { NotificationCenter.default.removeObserver(token) }

        manager.endUndoGrouping()
        XCTAssertEqual(counter.value, 7)

        manager.undo()
        XCTAssertEqual(counter.value, 0, "the flushed change was part of the group")
        XCTAssertFalse(manager.canUndo)
    }

    func testChangesFlushedWhenUndoStartsAreWhatGetsUndone() {
        let manager = UndoManager()
        let counter = Counter(manager)
        counter.set(1)
        manager.closeEventGroupIfNeeded()

        let pending = PendingChange(counter: counter, value: 2)
        let token = NotificationCenter.default.addObserver(
            forName: .NSUndoManagerCheckpoint, object: manager, queue: nil)
        { _ in pending.flush() }
        defer { NotificationCenter.default.removeObserver(token) }

        manager.undo()
        XCTAssertEqual(counter.value, 1, "undo reverted the just-flushed change only")
        XCTAssertEqual(manager.groupingLevel, 0)
        manager.undo()
        XCTAssertEqual(counter.value, 0)
    }
}

/// A change applied on the next checkpoint, the way a managed object context
/// registers undo for its pending changes in `processPendingChanges()`.
private final class PendingChange: @unchecked Sendable {
    private let counter: Counter
    private var value: Int?

    init(counter: Counter, value: Int) {
        self.counter = counter
        self.value = value
    }

    func flush() {
        guard let value else { return }
        self.value = nil
        counter.set(value)
    }
}

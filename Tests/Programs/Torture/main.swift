import OpenCoreData
import TortureKit

// ocd-torture: the other process of the crash and stress harnesses (ReliabilityTests).
//
//   ocd-torture save-loop <store>                      saves TortureModel's saves 1, 2, ... until
//                                                      killed, printing "saved <n>" after each
//   ocd-torture stress <store> <policy> <worker> <n>   n saves that each add 1 to Shared.w<worker>
//                                                      and insert an Item and a Tag named by the
//                                                      save (unique: all workers use the same names),
//                                                      under a merge policy
//                                                      (error, objectTrump, storeTrump, overwrite,
//                                                      rollback), printing "done <conflicts>"
//   ocd-torture migrate <store>                        opens the store with version 2 of the model,
//                                                      migrating it, and prints "migrated"
//   ocd-torture remote-writer <store> <n>              with persistent history on, renames the
//                                                      department of save 0 to "renamed", then
//                                                      inserts departments of saves 1...n, one save
//                                                      each, 100 ms apart, printing "saved <n> <t>"
//                                                      (t: the wall clock after the save, in seconds)
//   ocd-torture off-queue <store>                      saves a department, then asks its context
//                                                      hasChanges off its queue: a debug build stops
//
// Standard output is line-buffered by hand (FileHandle writes): a line printed is a save done.

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "save-loop" where arguments.count == 2:
    let url = URL(fileURLWithPath: arguments[1])
    do {
        let (_, context) = try TortureModel.open(url)
        try context.performAndWait {
            var n = (try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Counter")).first?.value(forKey: "value") as? Int ?? 0) + 1
            context.reset()
            while true {
                try TortureModel.save(n, in: context)
                say("saved \(n)")
                n += 1
            }
        }
    } catch {
        fail("save-loop: \(error)")
    }

case "stress" where arguments.count == 5:
    let policies: [String: Any] = ["error": NSErrorMergePolicy, "objectTrump": NSMergeByPropertyObjectTrumpMergePolicy,
                                   "storeTrump": NSMergeByPropertyStoreTrumpMergePolicy, "overwrite": NSOverwriteMergePolicy,
                                   "rollback": NSRollbackMergePolicy]
    guard let policy = policies[arguments[2]], let worker = Int(arguments[3]), (0..<4).contains(worker), let count = Int(arguments[4]) else {
        fail("stress: policy one of \(policies.keys.sorted()), worker 0...3, a count")
    }
    do {
        let (_, context) = try TortureModel.open(URL(fileURLWithPath: arguments[1]), mergePolicy: policy)
        var conflicts = 0
        try context.performAndWait {
            for sequence in 0..<count {
                while true {
                    guard let shared = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Shared")).first else { fail("stress: no Shared object") }
                    let key = "w\(worker)"
                    shared.setValue((shared.value(forKey: key) as? Int ?? 0) + 1, forKey: key)
                    let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                    item.setValue(worker, forKey: "worker")
                    item.setValue(sequence, forKey: "sequence")
                    // Every worker tags the same names: the unique constraint meets other
                    // processes' inserts. Under the error policy a worker looks first.
                    let tagName = "tag \(sequence)"
                    let tags = NSFetchRequest<NSManagedObject>(entityName: "Tag")
                    tags.predicate = NSPredicate(format: "name == %@", tagName)
                    let tagExists = try arguments[2] == "error" && context.count(for: tags) > 0
                    if !tagExists {
                        let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
                        tag.setValue(tagName, forKey: "name")
                        tag.setValue(worker, forKey: "worker")
                    }
                    do {
                        try context.save()
                        context.reset()
                        break
                    } catch let error as NSError where (error.code == NSManagedObjectMergeError || error.code == NSManagedObjectConstraintMergeError) && arguments[2] == "error" {
                        // The error policy reports the conflict; the caller starts over.
                        conflicts += 1
                        context.reset()
                    }
                }
            }
        }
        say("done \(conflicts)")
    } catch {
        fail("stress worker \(worker) under \(arguments[2]): \(error)")
    }

case "migrate" where arguments.count == 2:
    // Opens the store with version 2 of the model: the migration runs inside the open.
    do {
        _ = try TortureModel.open(URL(fileURLWithPath: arguments[1]), version: 2)
        say("migrated")
    } catch {
        fail("migrate: \(error)")
    }

case "remote-writer" where arguments.count == 3:
    // The other process of the remote-change test: its saves must be noticed by the test's
    // coordinator through the store file alone.
    guard let count = Int(arguments[2]) else { fail("remote-writer: a count") }
    do {
        let (_, context) = try TortureModel.open(URL(fileURLWithPath: arguments[1]), extraOptions: [NSPersistentHistoryTrackingKey: true])
        try context.performAndWait {
            let first = NSFetchRequest<NSManagedObject>(entityName: "Department")
            first.predicate = NSPredicate(format: "save == 0")
            for department in try context.fetch(first) { department.setValue("renamed", forKey: "name") }
            for n in 1...max(count, 1) {
                Thread.sleep(forTimeInterval: 0.1)
                let department = NSEntityDescription.insertNewObject(forEntityName: "Department", into: context)
                department.setValue("remote \(n)", forKey: "name")
                department.setValue(n, forKey: "save")
                try context.save()
                say("saved \(n) \(Date().timeIntervalSince1970)")
            }
        }
    } catch {
        fail("remote-writer: \(error)")
    }

case "off-queue" where arguments.count == 2:
    // `hasChanges` reads the context's change sets without a check of its own: the check on
    // the context's state must catch it.
    do {
        let (_, context) = try TortureModel.open(URL(fileURLWithPath: arguments[1]))
        let department = try context.performAndWait {
            let department = NSEntityDescription.insertNewObject(forEntityName: "Department", into: context)
            department.setValue(1, forKey: "save")
            try context.save()
            return department
        }
        say("saved")
        say(context.hasChanges ? "changed" : "unchanged")
    } catch {
        fail("off-queue: \(error)")
    }

default:
    fail("usage: ocd-torture save-loop <store> | stress <store> <policy> <worker> <count> | migrate <store> | remote-writer <store> <count> | off-queue <store>")
}

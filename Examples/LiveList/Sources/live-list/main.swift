import Foundation
import Hummingbird
import LiveList
import OpenCoreData

// live-list [port]: serves the live list of an in-memory store on 127.0.0.1.
//   curl -N http://127.0.0.1:8080/employees/live
//   curl -d '{"name":"Ada","team":"Engines"}' http://127.0.0.1:8080/employees
let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 8080
let container = NSPersistentContainer(name: "LiveList", managedObjectModel: LiveListModel.make())
container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
container.loadPersistentStores { _, error in
    if let error { fatalError("\(error)") }
}
let server = LiveListServer(container: container)
let app = Application(router: server.router(), configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()

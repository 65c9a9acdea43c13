import Foundation
import Hummingbird
import HummingbirdTesting
import LiveList
import OpenCoreData
import XCTest

/// The example end to end: a real server on 127.0.0.1, a client streaming the live list, and
/// an employee saved through the API while it streams.
final class LiveListTests: XCTestCase {
    func testAClientSeesTheListThenEachSave() async throws {
        let container = NSPersistentContainer(name: "LiveList", managedObjectModel: LiveListModel.make())
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
        container.loadPersistentStores { _, error in XCTAssertNil(error) }
        try await container.performBackgroundTask { context in
            let ada = Employee(context: context)
            ada.name = "Ada"; ada.team = "Engines"
            try context.save()
        }
        let server = LiveListServer(container: container)
        let app = Application(router: server.router())

        try await app.test(.live) { client in
            // The list streams until it has sent two events: the list, then one change.
            async let streamed = client.execute(uri: "/employees/live?events=2", method: .get) { response in
                XCTAssertEqual(response.status, .ok)
                XCTAssertEqual(response.headers[.contentType], "text/event-stream")
                return String(buffer: response.body)
            }
            // Save once the list is streaming, so the save is a change and not in the list. (The
            // test client has one connection, busy with the stream: the save goes straight to
            // the container, as another server process's would reach the store.)
            for _ in 0..<500 where await server.liveLists.running == 0 { try await Task.sleep(for: .milliseconds(10)) }
            try await container.performBackgroundTask { context in
                let grace = Employee(context: context)
                grace.name = "Grace"; grace.team = "Compilers"
                try context.save()
            }
            let events = try await streamed.split(separator: "\n\n").map { $0.dropFirst("data: ".count) }
            XCTAssertEqual(events.count, 2)
            XCTAssertEqual(events.first.map(String.init), #"{"changes":[],"deletedTeams":[],"insertedTeams":[],"list":[{"names":["Ada"],"team":"Engines"}]}"#)
            XCTAssertEqual(events.last.map(String.init), #"{"changes":[{"name":"Grace","to":[0,0],"type":"insert"}],"deletedTeams":[],"insertedTeams":[0]}"#)
        }

        // The API's own save, then a new list with both teams.
        try await app.test(.live) { client in
            try await client.execute(uri: "/employees", method: .post, body: ByteBuffer(string: #"{"name":"Linus","team":"Kernels"}"#)) { response in
                XCTAssertEqual(response.status, .created)
            }
            try await client.execute(uri: "/employees/live?events=1", method: .get) { response in
                XCTAssertEqual(String(buffer: response.body),
                               #"data: {"changes":[],"deletedTeams":[],"insertedTeams":[],"list":[{"names":["Grace"],"team":"Compilers"},{"names":["Ada"],"team":"Engines"},{"names":["Linus"],"team":"Kernels"}]}"# + "\n\n")
            }
        }
    }
}

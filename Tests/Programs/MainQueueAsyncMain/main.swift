import MainQueueProbe
import OpenCoreData

// A program with an async `main` (top-level `await`), as every async command-line tool has: the
// main actor and the main queue run on dispatch worker threads.
let container = makeProbeContainer()
await Task.yield()
runMainQueuePatterns(container.viewContext)
// Park this task; the patterns exit the program.
while true { try await Task.sleep(nanoseconds: 1_000_000_000) }

import MainQueueProbe
import OpenCoreData

// A program that parks its main thread in `dispatchMain()`, as server frameworks and daemons do:
// from then on the main queue is drained by dispatch worker threads.
let container = makeProbeContainer()
runMainQueuePatterns(container.viewContext)
dispatchMain()

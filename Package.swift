// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "OpenCoreData",
    platforms: [.macOS(.v15)],  // Synchronization.Atomic
    products: [
        .library(name: "OpenCoreData", targets: ["OpenCoreData"]),
        .executable(name: "ocd", targets: ["ocd"]),
        .executable(name: "ocd-bench", targets: ["ocd-bench"]),
    ],
    targets: [
        // The system SQLite, through its C API (needs libsqlite3-dev on Linux).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite",
                       providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // The system zlib: Apple's stores keep their model in Z_MODELCACHE as raw DEFLATE.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib",
                       providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(name: "OpenCoreData", dependencies: ["CSQLite", "CZlib"]),
        .executableTarget(name: "ocd", dependencies: ["OpenCoreData"]),
        // Benchmarks: OpenCoreData against raw SQLite C calls in one process.
        .executableTarget(name: "ocd-bench", dependencies: ["OpenCoreData", "CSQLite"]),
        .testTarget(name: "OpenCoreDataTests", dependencies: ["OpenCoreData"]),
    ],
    swiftLanguageModes: [.v6]
)

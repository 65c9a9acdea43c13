// swift-tools-version: 6.2
import PackageDescription

// `ocd-bench-peers`: the workloads of `ocd-bench` that another library can do too, through
// OpenCoreData, raw SQLite and GRDB's records in one run. A package of its own, so that neither
// the library nor `ocd-bench` (nor CI's builds of them) ever compile GRDB. `OpenCoreData` is a
// link to the repository's root, so the dependency's name does not depend on where the
// repository is checked out.
//
//   cd Benchmarks/Peers && swift run -c release ocd-bench-peers [--quick] [--repeat N] [--only W7]
let package = Package(
    name: "Peers",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "OpenCoreData"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .executableTarget(name: "ocd-bench-peers", dependencies: [
            .product(name: "OCDBenchKit", package: "OpenCoreData"),
            .product(name: "OpenCoreData", package: "OpenCoreData"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)

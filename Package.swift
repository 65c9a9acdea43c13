// swift-tools-version: 6.0
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "OpenCoreData",
    platforms: [.macOS(.v15)],  // Synchronization.Atomic
    products: [
        .library(name: "OpenCoreData", targets: ["OpenCoreData"]),
        // `@ManagedProperty`: typed accessors without key paths. A product of its own, because the
        // macro needs swift-syntax, which the core library must build without.
        .library(name: "OpenCoreDataMacros", targets: ["OpenCoreDataMacros"]),
        // The PostgreSQL store's driver (docs/POSTGRESQL.md). A product of its own,
        // because it needs postgres-nio (and SwiftNIO), which the core library must build without.
        .library(name: "OpenCoreDataPostgreSQL", targets: ["OpenCoreDataPostgreSQL"]),
        .executable(name: "ocd", targets: ["ocd"]),
        .executable(name: "ocd-bench", targets: ["ocd-bench"]),
        // The workloads `ocd-bench` shares with `ocd-bench-peers`, a package of its own
        // (Benchmarks/Peers) so that nothing here builds GRDB. Not API: for the benchmarks only.
        .library(name: "OCDBenchKit", targets: ["OCDBenchKit"]),
        // `ocd port`'s source rewriter: a program of its own, because it needs swift-syntax.
        .executable(name: "ocd-port", targets: ["ocd-port"]),
        // `ocd copy` and `ocd inspect` for `postgresql://` URLs: a program of its own, because it
        // needs SwiftNIO, which `ocd` (built in every app's build by the model plugin) must not.
        .executable(name: "ocd-postgresql", targets: ["ocd-postgresql"]),
        // Generates the NSManagedObject subclasses of a target's Xcode models at build time.
        .plugin(name: "OpenCoreDataModelPlugin", targets: ["OpenCoreDataModelPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.0"),
        // `swift package generate-documentation` builds the DocC catalog (Documentation.docc).
        // A command plugin: nothing of it is linked into the products.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        // What the PostgreSQL store's module uses of postgres-nio's own dependencies, by name.
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.3"),
    ],
    targets: [
        // The system SQLite, through its C API (needs libsqlite3-dev on Linux).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite",
                       providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // The system zlib: Apple's stores keep their model in Z_MODELCACHE as raw DEFLATE.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib",
                       providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // `__builtin_prefetch`, which Swift cannot spell: a fetch's rows are read back after
        // all of them were decoded, long out of the caches (see StoreRow+Prefetch.swift).
        .target(name: "CMemoryHints", path: "Sources/CMemoryHints"),
        .target(name: "OpenCoreData", dependencies: ["CSQLite", "CZlib", "CMemoryHints"]),
        .target(name: "OpenCoreDataPostgreSQL", dependencies: [
            "OpenCoreData",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .macro(name: "OpenCoreDataMacrosPlugin", dependencies: [
            .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
            .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
        ]),
        .target(name: "OpenCoreDataMacros", dependencies: ["OpenCoreData", "OpenCoreDataMacrosPlugin"]),
        // The commands `ocd` and `ocd-postgresql` share (inspect, copy); OpenCoreData only.
        .target(name: "OCDCommands", dependencies: ["OpenCoreData"]),
        .executableTarget(name: "ocd", dependencies: ["OCDCommands", "OpenCoreData"]),
        .executableTarget(name: "ocd-postgresql", dependencies: ["OCDCommands", "OpenCoreDataPostgreSQL"]),
        // Ports Swift sources from Apple's Core Data (`ocd port`); swift-syntax, not OpenCoreData.
        .target(name: "OCDPort", dependencies: [
            .product(name: "SwiftSyntax", package: "swift-syntax"),
            .product(name: "SwiftParser", package: "swift-syntax"),
            .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
        ]),
        .executableTarget(name: "ocd-port", dependencies: ["OCDPort"]),
        .plugin(name: "OpenCoreDataModelPlugin", capability: .buildTool(), dependencies: ["ocd"]),
        // Benchmarks: OpenCoreData against raw SQLite C calls in one process.
        .target(name: "OCDBenchKit", dependencies: ["OpenCoreData", "OpenCoreDataMacros", "CSQLite"]),
        .executableTarget(name: "ocd-bench", dependencies: [
            "OCDBenchKit", "OpenCoreData", "CSQLite",
            // P1–P4 (`--postgresql`): the PostgreSQL store against postgres-nio itself.
            "OpenCoreDataPostgreSQL",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Programs the tests run as child processes: a main-queue context in a program whose main
        // thread is parked in `dispatchMain()`, and in one with an async `main`.
        .target(name: "MainQueueProbe", dependencies: ["OpenCoreData"], path: "Tests/Programs/MainQueueProbe"),
        .executableTarget(name: "main-queue-dispatch-main", dependencies: ["MainQueueProbe"], path: "Tests/Programs/MainQueueDispatchMain"),
        .executableTarget(name: "main-queue-async-main", dependencies: ["MainQueueProbe"], path: "Tests/Programs/MainQueueAsyncMain"),
        // The crash and stress harnesses: the store they torture, its consistency check, and
        // `ocd-torture`, the process that is killed or runs beside others.
        .target(name: "TortureKit", dependencies: ["OpenCoreData"], path: "Tests/Programs/TortureKit"),
        .executableTarget(name: "ocd-torture", dependencies: ["TortureKit"], path: "Tests/Programs/Torture"),
        // One app server of the PostgreSQL store's multi-server proof, run four at a time.
        .executableTarget(name: "ocd-pg-appserver", dependencies: ["OpenCoreDataPostgreSQL"], path: "Tests/Programs/PostgreSQLAppServer"),
        // The fuzz corpus is read from the source tree by path (FuzzRunner), not bundled.
        // What both test targets share: the company model and its stacks, fixture lookups,
        // temporary stores, the built tools. Public API of OpenCoreData only (and one counter
        // through `@_spi(Testing)`), so it builds in any configuration.
        .target(name: "OpenCoreDataTestSupport", dependencies: ["OpenCoreData"], path: "Tests/OpenCoreDataTestSupport"),
        // Behaviour tests, grouped by the Programming Guide's chapters.
        .testTarget(name: "OpenCoreDataTests", dependencies: ["OpenCoreData", "OpenCoreDataTestSupport", "TortureKit", "main-queue-dispatch-main", "main-queue-async-main", "ocd-torture"],
                    exclude: ["Reliability/FuzzCorpus"],
                    // A model found by name, as NSPersistentContainer(name:) finds an app's.
                    resources: [.copy("Resources/ContainerShop.xcdatamodel")]),
        // Tests of internal types (`@testable import OpenCoreData`) and the layer check.
        .testTarget(name: "OpenCoreDataInternalsTests", dependencies: ["OpenCoreData", "OpenCoreDataTestSupport"]),
        // Samples/ holds source text the tests read by path, not code of the target.
        .testTarget(name: "OCDPortTests", dependencies: ["OCDPort", "OpenCoreDataTestSupport", "ocd-port", "ocd"], exclude: ["Samples"]),
        // Against a real server: Scripts/postgresql-test-cluster starts one (CI always does).
        .testTarget(name: "OpenCoreDataPostgreSQLTests", dependencies: [
            "OpenCoreDataPostgreSQL", "OpenCoreDataTestSupport", "ocd-pg-appserver", "ocd", "ocd-postgresql",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        .testTarget(name: "OpenCoreDataMacrosTests", dependencies: [
            "OpenCoreDataMacros", "OpenCoreDataMacrosPlugin",
            .product(name: "SwiftSyntaxMacrosTestSupport", package: "swift-syntax"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.2
import PackageDescription

// An example, not part of the library: a Hummingbird server that streams a live list of
// employees to each client as server-sent events, from `context.resultChanges(for:)`.
// A package of its own, so the library never depends on a web framework. `OpenCoreData` is a
// link to the repository's root, so the dependency's name does not depend on where the
// repository is checked out.
let package = Package(
    name: "LiveList",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "OpenCoreData"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
    ],
    targets: [
        .target(name: "LiveList", dependencies: [
            .product(name: "OpenCoreData", package: "OpenCoreData"),
            .product(name: "Hummingbird", package: "hummingbird"),
        ]),
        .executableTarget(name: "live-list", dependencies: ["LiveList"]),
        .testTarget(name: "LiveListTests", dependencies: [
            "LiveList",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)

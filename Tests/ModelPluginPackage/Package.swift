// swift-tools-version: 6.0
import PackageDescription

// A package that uses OpenCoreDataModelPlugin as an app would: its target holds an Xcode model
// whose classes the plugin generates at build time, and its tests use them. Built and tested
// by .ci/run. `OpenCoreData` is a link to the repository's root, so the dependency's name does
// not depend on where the repository is checked out.
let package = Package(
    name: "ModelPluginPackage",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "OpenCoreData"),
    ],
    targets: [
        .target(name: "Shop",
                dependencies: [.product(name: "OpenCoreDataMacros", package: "OpenCoreData")],
                resources: [.copy("Shop.xcdatamodeld")],
                plugins: [.plugin(name: "OpenCoreDataModelPlugin", package: "OpenCoreData")]),
        .testTarget(name: "ShopTests", dependencies: ["Shop", .product(name: "OpenCoreDataMacros", package: "OpenCoreData")]),
    ],
    swiftLanguageModes: [.v6]
)

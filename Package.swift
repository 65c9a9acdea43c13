// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "OpenCoreData",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "OpenCoreData", targets: ["OpenCoreData"]),
        .executable(name: "ocd", targets: ["ocd"]),
    ],
    targets: [
        .target(name: "OpenCoreData"),
        .executableTarget(name: "ocd", dependencies: ["OpenCoreData"]),
        .testTarget(name: "OpenCoreDataTests", dependencies: ["OpenCoreData"]),
    ],
    swiftLanguageModes: [.v6]
)

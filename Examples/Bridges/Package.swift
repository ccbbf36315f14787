// swift-tools-version: 6.0
import PackageDescription

// The cache's event hook bridged to swift-log, os.Logger and swift-metrics: code to copy into
// an app (the LoggingAndMetrics article shows it), compiled and tested here so that it stays
// right. Not a product of cachegen, whose packages keep zero dependencies.
let package = Package(
    name: "Bridges",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        .package(name: "cachegen", path: "../.."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "CacheBridges",
            dependencies: [
                .product(name: "CachedClientRuntime", package: "cachegen"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "CacheBridgesTests",
            dependencies: [
                "CacheBridges",
                .product(name: "CachedClientTesting", package: "cachegen"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
    ]
)

// swift-tools-version: 6.0
import PackageDescription

// No package dependencies: the plugin's tool is compiled in every user's clean build,
// and the runtime ships inside their app.
let package = Package(
    name: "cachegen",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .executable(name: "cachegen", targets: ["cachegen"]),
        .library(name: "CacheGenCore", targets: ["CacheGenCore"]),
        .library(name: "CachedClientRuntime", targets: ["CachedClientRuntime"]),
        .library(name: "CachedClientTesting", targets: ["CachedClientTesting"]),
        .plugin(name: "CacheGenPlugin", targets: ["CacheGenPlugin"]),
    ],
    targets: [
        .target(name: "CacheGenCore"),
        .executableTarget(name: "cachegen", dependencies: ["CacheGenCore"]),
        .plugin(name: "CacheGenPlugin", capability: .buildTool(), dependencies: ["cachegen"]),
        .target(name: "CachedClientRuntime"),
        .target(name: "CachedClientTesting", dependencies: ["CachedClientRuntime"]),
        .testTarget(
            name: "CacheGenCoreTests", dependencies: ["CacheGenCore"], exclude: ["Specs", "YAML/OpenAPIFixtures", "OpenAPI/Documents"]),
        .testTarget(name: "cachegenTests", dependencies: ["cachegen", "CacheGenCore"]),
        // A child process for the kill -9 test: it writes entries until it is killed.
        // Not a product; a test dependency so that `swift test` builds it.
        .executableTarget(name: "StoreWriter", dependencies: ["CachedClientRuntime"], path: "Tests/StoreWriter"),
        // Tests/Fixtures/fixture_server.py driven from Swift, for both test targets that need a
        // real server. Not a product.
        .target(name: "FixtureServerSupport", path: "Tests/FixtureServerSupport"),
        .testTarget(
            name: "CachedClientRuntimeTests",
            dependencies: ["CachedClientRuntime", "CachedClientTesting", "StoreWriter", "FixtureServerSupport"]),
        .testTarget(
            name: "GeneratedClientTests",
            dependencies: ["CachedClientRuntime", "CachedClientTesting", "FixtureServerSupport"],
            exclude: ["Golden/README.md"]
        ),
    ]
)

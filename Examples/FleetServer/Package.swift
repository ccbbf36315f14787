// swift-tools-version: 6.0
import PackageDescription

// A Hummingbird 2 service that calls an upstream API through a cachegen client (generated at
// build time by the plugin from Weather.cachegen.json) on the PostgreSQL store, so that every
// instance sharing the database shares entries, removals and upstream requests.
let package = Package(
    name: "FleetServer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "cachegen", path: "../.."),
        .package(path: "../../Stores/PostgresCacheStore"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
    ],
    targets: [
        .executableTarget(
            name: "FleetServer",
            dependencies: [
                .product(name: "CachedClientRuntime", package: "cachegen"),
                .product(name: "PostgresCacheStore", package: "PostgresCacheStore"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            plugins: [.plugin(name: "CacheGenPlugin", package: "cachegen")]
        )
    ]
)

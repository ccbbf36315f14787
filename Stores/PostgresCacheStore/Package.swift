// swift-tools-version: 6.0
import PackageDescription

// A `CacheStore` on PostgreSQL, in a package of its own so that the root package (the
// generator, the runtime) keeps zero dependencies; only services that want a shared cache
// pay for postgres-nio and SwiftNIO.
let package = Package(
    name: "PostgresCacheStore",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "PostgresCacheStore", targets: ["PostgresCacheStore"]),
    ],
    dependencies: [
        .package(name: "cachegen", path: "../.."),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        // Already in postgres-nio's graph; named for `Logging`'s no-op handler and
        // `NIOFoundationCompat`'s `Data`/`ByteBuffer` bridges without a copy.
        .package(url: "https://github.com/apple/swift-log", from: "1.5.3"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
    ],
    targets: [
        .target(
            name: "PostgresCacheStore",
            dependencies: [
                .product(name: "CachedClientRuntime", package: "cachegen"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ]
        ),
        // The root package's fixture server driver (a symbolic link to ../../Tests), for the
        // tests and benchmarks that need a real upstream. Not a product.
        .target(
            name: "FixtureServerSupport", dependencies: [.product(name: "CachedClientRuntime", package: "cachegen")],
            path: "Tests/FixtureServerSupport"),
        // The child process of the many-process tests and benchmarks: removes, reads through
        // a client, holds a lease until killed. Not a product.
        .executableTarget(
            name: "PostgresStoreChild",
            dependencies: [
                "PostgresCacheStore",
                .product(name: "CachedClientRuntime", package: "cachegen"),
            ]
        ),
        // Printed figures, not tests: `Scripts/with-postgres.sh swift run -c release
        // --package-path Stores/PostgresCacheStore PostgresStoreBenchmarks`.
        .executableTarget(
            name: "PostgresStoreBenchmarks",
            dependencies: [
                "PostgresCacheStore", "FixtureServerSupport",
                .product(name: "CachedClientRuntime", package: "cachegen"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "PostgresCacheStoreTests",
            dependencies: [
                "PostgresCacheStore", "PostgresStoreChild", "FixtureServerSupport",
                .product(name: "CachedClientRuntime", package: "cachegen"),
                .product(name: "CachedClientTesting", package: "cachegen"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
    ]
)

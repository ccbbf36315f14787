// swift-tools-version: 6.1
import PackageDescription

// Benchmarks for cachegen; never a dependency of the product. Run from the repository root:
//   swift package --package-path Benchmarks benchmark
// See Benchmarks/README.md.
let package = Package(
    name: "cachegen-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "cachegen", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // The generated client (through the product's own plugin), payloads and a loopback server.
        .target(
            name: "BenchSupport",
            dependencies: [.product(name: "CachedClientRuntime", package: "cachegen")],
            plugins: [.plugin(name: "CacheGenPlugin", package: "cachegen")]
        ),
        // A plain executable for profilers (callgrind, perf); see its main.swift.
        .executableTarget(
            name: "Profile",
            dependencies: [
                "BenchSupport",
                .product(name: "CachedClientRuntime", package: "cachegen"),
                .product(name: "_CacheGenCore", package: "cachegen"),
            ]
        ),
        // Prints prefetch figures (1,000 calls over loopback); see its main.swift.
        .executableTarget(
            name: "Prefetch",
            dependencies: ["BenchSupport", .product(name: "CachedClientRuntime", package: "cachegen")]
        ),
        .executableTarget(
            name: "Generator",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "_CacheGenCore", package: "cachegen"),
            ],
            path: "Benchmarks/Generator",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "CacheHit",
            dependencies: [
                "BenchSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "CachedClientRuntime", package: "cachegen"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/CacheHit",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Scale",
            dependencies: [
                "BenchSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "CachedClientRuntime", package: "cachegen"),
            ],
            path: "Benchmarks/Scale",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Network",
            dependencies: [
                "BenchSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "CachedClientRuntime", package: "cachegen"),
            ],
            path: "Benchmarks/Network",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)

// swift-tools-version: 6.0
import PackageDescription

// libFuzzer targets for cachegen's readers (issue 17). Not part of the product: this package
// depends on the root package by path and reaches its internal types with `@testable import`,
// so nothing in Sources/ changes for fuzzing. Build and run through Scripts/fuzz.sh, which
// passes `-sanitize=fuzzer,address -enable-testing`; each target's top-level code hands
// libFuzzer's driver its entry point.
let package = Package(
    name: "cachegen-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "cachegen", path: "..")],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "_CacheGenCore", package: "cachegen"),
                .product(name: "CachedClientRuntime", package: "cachegen"),
            ]),
        // libFuzzer's driver, declared for Swift.
        .target(name: "LibFuzzerDriver"),
        .executableTarget(name: "FuzzJSONReader", dependencies: ["FuzzSupport", "LibFuzzerDriver"]),
        .executableTarget(name: "FuzzYAMLReader", dependencies: ["FuzzSupport", "LibFuzzerDriver"]),
        .executableTarget(name: "FuzzSpecPipeline", dependencies: ["FuzzSupport", "LibFuzzerDriver"]),
        .executableTarget(name: "FuzzOpenAPI", dependencies: ["FuzzSupport", "LibFuzzerDriver"]),
        .executableTarget(name: "FuzzCacheFile", dependencies: ["FuzzSupport", "LibFuzzerDriver"]),
        .executableTarget(name: "FuzzResponseHeaders", dependencies: ["FuzzSupport", "LibFuzzerDriver"]),
        .executableTarget(name: "FuzzMultipart", dependencies: ["FuzzSupport", "LibFuzzerDriver"]),
    ]
)

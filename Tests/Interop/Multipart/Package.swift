// swift-tools-version: 6.0
import PackageDescription

// cachegen's multipart bodies against a multipart reader and writer that is not cachegen's:
// swift-openapi-runtime's. A package of its own, so that neither the product nor the root
// package depends on it (README.md says why it exists).
let package = Package(
    name: "MultipartInterop",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "cachegen", path: "../../.."),
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
    ],
    targets: [
        .testTarget(
            name: "MultipartInteropTests",
            dependencies: [
                .product(name: "CachedClientRuntime", package: "cachegen"),
                .product(name: "CachedClientTesting", package: "cachegen"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        )
    ]
)

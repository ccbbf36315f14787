// swift-tools-version: 6.0
import PackageDescription

// A small app that uses cachegen the way a user would: the plugin turns
// News.cachegen.json into a client at build time, and its mocks into the tests' build;
// nothing generated is checked in.
let package = Package(
    name: "NewsDemo",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "cachegen", path: "../..")],
    targets: [
        .executableTarget(
            name: "NewsDemo",
            dependencies: [.product(name: "CachedClientRuntime", package: "cachegen")],
            plugins: [.plugin(name: "CacheGenPlugin", package: "cachegen")]
        ),
        // The plugin on a test target writes the mocks of the specs of the targets it tests;
        // the app target above compiles none.
        .testTarget(
            name: "NewsDemoTests",
            dependencies: ["NewsDemo"],
            plugins: [.plugin(name: "CacheGenPlugin", package: "cachegen")]
        ),
    ]
)

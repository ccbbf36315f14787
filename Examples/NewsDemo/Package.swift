// swift-tools-version: 6.0
import PackageDescription

// A small app that uses cachegen the way a user would: the plugin turns
// News.cachegen.json into a client at build time; nothing generated is checked in.
let package = Package(
    name: "NewsDemo",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "cachegen", path: "../..")],
    targets: [
        .executableTarget(
            name: "NewsDemo",
            dependencies: [.product(name: "CachedClientRuntime", package: "cachegen")],
            plugins: [.plugin(name: "CacheGenPlugin", package: "cachegen")]
        )
    ]
)

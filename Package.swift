// swift-tools-version: 6.0
import PackageDescription

// No package dependencies: the plugin's tool is compiled in every user's clean build,
// and the runtime ships inside their app.
let package = Package(
    name: "cachegen",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .executable(name: "cachegen", targets: ["cachegen"]),
        // `cachegen-cache inspect <folder>`: a look inside a cache folder. Apart from
        // `cachegen` so that the plugin's tool, built in every user's build, does not compile
        // the runtime's store.
        .executable(name: "cachegen-cache", targets: ["CachedClientInspect"]),
        // Underscored: the generator's insides, for this repository's benchmarks and fuzzers
        // (their own packages). Not an API: it changes with every release, like
        // swift-openapi-generator's _OpenAPIGeneratorCore. Users run the plugin or the CLI.
        .library(
            name: "_CacheGenCore",
            targets: ["CacheGenReading", "CacheGenYAML", "CacheGenSpec", "CacheGenOpenAPI", "CacheGenTranslation", "CacheGenCore"]),
        .library(name: "CachedClientRuntime", targets: ["CachedClientRuntime"]),
        .library(name: "CachedClientTesting", targets: ["CachedClientTesting"]),
        .plugin(name: "CacheGenPlugin", targets: ["CacheGenPlugin"]),
        .plugin(name: "GenerateCachedClients", targets: ["GenerateCachedClients"]),
    ],
    targets: [
        // The generator, one target per layer (ARCHITECTURE.md), bottom up: a dependency
        // against the map does not compile.
        .target(name: "CacheGenReading"),
        .target(name: "CacheGenYAML", dependencies: ["CacheGenReading"]),
        .target(name: "CacheGenSpec", dependencies: ["CacheGenReading"]),
        .target(name: "CacheGenOpenAPI", dependencies: ["CacheGenReading", "CacheGenYAML", "CacheGenSpec"]),
        .target(name: "CacheGenTranslation", dependencies: ["CacheGenReading", "CacheGenSpec"]),
        .target(name: "CacheGenCore", dependencies: ["CacheGenReading", "CacheGenSpec", "CacheGenOpenAPI", "CacheGenTranslation"]),
        .executableTarget(name: "cachegen", dependencies: ["CacheGenReading", "CacheGenSpec", "CacheGenTranslation", "CacheGenCore"]),
        .plugin(name: "CacheGenPlugin", capability: .buildTool(), dependencies: ["cachegen"]),
        .plugin(
            name: "GenerateCachedClients",
            capability: .command(
                intent: .custom(
                    verb: "generate-cached-clients",
                    description: "Generate cached API clients from *.cachegen.json specs into the source tree"),
                permissions: [.writeToPackageDirectory(reason: "Writes the generated Swift files next to the specs")]
            ),
            dependencies: ["cachegen"]
        ),
        // The runtime, one target per layer (ARCHITECTURE.md), bottom up; `CachedClientRuntime`
        // re-exports them all, so an app imports one module.
        .target(name: "CachedClientValues"),
        .target(name: "CachedClientStore", dependencies: ["CachedClientValues"]),
        .target(name: "CachedClientFileStore", dependencies: ["CachedClientStore", "CachedClientValues"]),
        .target(name: "CachedClientHTTP", dependencies: ["CachedClientStore", "CachedClientValues"]),
        .target(
            name: "CachedClientCalls", dependencies: ["CachedClientHTTP", "CachedClientStore", "CachedClientValues"]),
        // Offline writes, optimistic updates and replaced entities, above the call path, which
        // reaches them only through its seams (`ClientMutations`, `EntityReplacing`).
        .target(
            name: "CachedClientMutations",
            dependencies: ["CachedClientCalls", "CachedClientHTTP", "CachedClientStore", "CachedClientValues"]),
        .target(name: "CachedClientQueries", dependencies: ["CachedClientCalls", "CachedClientHTTP", "CachedClientMutations", "CachedClientValues"]),
        .target(
            name: "CachedClientRuntime",
            dependencies: [
                "CachedClientCalls", "CachedClientFileStore", "CachedClientHTTP", "CachedClientMutations", "CachedClientQueries",
                "CachedClientStore", "CachedClientValues",
            ]),
        .target(name: "CachedClientTesting", dependencies: ["CachedClientRuntime"]),
        // `cachegen-cache`, a program of its own (see the product).
        .executableTarget(
            name: "CachedClientInspect", dependencies: ["CachedClientFileStore", "CachedClientStore", "CachedClientValues"]),
        // The generator's tests, one target per source target, each depending on its own target
        // (what it needs below comes with it); the helpers they share, written once, in
        // GeneratorTestSupport. Fixtures are read by path, not built.
        .target(name: "GeneratorTestSupport", path: "Tests/GeneratorTestSupport"),
        .testTarget(name: "CacheGenReadingTests", dependencies: ["CacheGenReading", "GeneratorTestSupport"]),
        .testTarget(
            name: "CacheGenYAMLTests", dependencies: ["CacheGenReading", "CacheGenYAML", "GeneratorTestSupport"],
            exclude: ["OpenAPIFixtures"]),
        .testTarget(name: "CacheGenSpecTests", dependencies: ["CacheGenSpec"]),
        .testTarget(
            name: "CacheGenOpenAPITests", dependencies: ["CacheGenOpenAPI", "CacheGenReading", "CacheGenSpec", "GeneratorTestSupport"]),
        .testTarget(name: "CacheGenTranslationTests", dependencies: ["CacheGenTranslation", "GeneratorTestSupport"]),
        // The generator as a whole: every stage's output through the pipeline, read in the
        // stages' own terms where a test looks inside one.
        .testTarget(
            name: "CacheGenCoreTests",
            dependencies: [
                "CacheGenCore", "CacheGenOpenAPI", "CacheGenReading", "CacheGenSpec", "CacheGenTranslation", "CacheGenYAML",
                "GeneratorTestSupport",
            ],
            exclude: ["Specs", "OpenAPI/Documents", "FuzzRegressions"]),
        // The CLIs run as processes; `cachegen-cache`'s tests fill a cache folder through the
        // runtime's layers below the mutations.
        .testTarget(
            name: "cachegenTests",
            dependencies: [
                "cachegen", "CachedClientInspect", "CacheGenCore", "CachedClientCalls", "CachedClientFileStore", "CachedClientStore",
                "CachedClientValues", "FixtureServerSupport",
            ]),
        // The plugins' shared file (Plugins/PluginsShared, by symlink) checked on Linux, and the
        // command plugin run by `swift package` on a scratch package.
        .testTarget(name: "CacheGenPluginTests", dependencies: ["CacheGenCore", "CacheGenYAML", "FixtureServerSupport"]),
        // A child process for the kill -9 test: it writes entries until it is killed.
        // Not a product; a test dependency so that `swift test` builds it.
        .executableTarget(
            name: "StoreWriter", dependencies: ["CachedClientRuntime", "CachedClientFileStore", "FixtureServerSupport"],
            path: "Tests/StoreWriter"),
        // A child process for the cancellation-deadlock checks (`CancellationWindowTests`): a call
        // cancelled as its answer is handled, in a process of its own. Not a product.
        .executableTarget(
            name: "CancellationProbe", dependencies: ["CachedClientRuntime", "FixtureServerSupport"],
            path: "Tests/CancellationProbe"),
        // Tests/Fixtures/fixture_server.py driven from Swift, for every test target that needs a
        // real server, with the child processes and the forwarding store. It needs only the HTTP
        // and store layers, so a target using it reaches no more of the runtime. Not a product.
        .target(name: "FixtureServerSupport", dependencies: ["CachedClientHTTP", "CachedClientStore"], path: "Tests/FixtureServerSupport"),
        // The store tests' shared helpers, written once, on the store layers alone: the file
        // store's folders, keys and entries, an event log, a deadline for reads that may block,
        // a queued mutation. Not a product.
        .target(
            name: "StoreTestSupport",
            dependencies: ["CachedClientFileStore", "CachedClientStore", "CachedClientValues", "FixtureServerSupport"],
            path: "Tests/StoreTestSupport"),
        // The runtime tests' shared helpers, written once: a scripted transport, clocks, gates,
        // stores that fail on purpose, the retry and write-behind checks both the call path's
        // and the mutation layer's tests run, nginx, the offline doubles. Not a product.
        .target(
            name: "CachedClientTestSupport",
            dependencies: ["CachedClientRuntime", "CachedClientValues", "FixtureServerSupport", "StoreTestSupport"],
            path: "Tests/CachedClientTestSupport"),
        // The runtime's tests, one target per source target, each depending on its layer and
        // those below it (ARCHITECTURE.md, "Tests"); what crosses a network or a process for
        // real, or drives several layers end to end, is CachedClientIntegrationTests. From
        // CachedClientCallsTests up, a client is made through CachedClientTestSupport (on the
        // umbrella) with the mutation layer's public initializer, so those link the whole
        // runtime; their dependencies say which layers they test and import.
        .testTarget(name: "CachedClientValuesTests", dependencies: ["CachedClientValues"]),
        .testTarget(name: "CachedClientStoreTests", dependencies: ["CachedClientStore", "CachedClientValues"]),
        .testTarget(
            name: "CachedClientFileStoreTests",
            dependencies: [
                "CachedClientFileStore", "CachedClientStore", "CachedClientValues", "FixtureServerSupport", "StoreTestSupport",
            ],
            // Inputs Fuzz/ found (issue 17), read by path by the regression tests (likewise below).
            exclude: ["FuzzRegressions"]),
        .testTarget(
            name: "CachedClientHTTPTests", dependencies: ["CachedClientHTTP", "CachedClientStore", "CachedClientValues"],
            exclude: ["FuzzRegressions"]),
        .testTarget(
            name: "CachedClientCallsTests",
            dependencies: [
                "CachedClientCalls", "CachedClientFileStore", "CachedClientHTTP", "CachedClientStore", "CachedClientValues",
                "CachedClientTestSupport", "CachedClientTesting", "FixtureServerSupport", "StoreTestSupport",
            ],
            exclude: ["FuzzRegressions"]),
        .testTarget(
            name: "CachedClientMutationsTests",
            dependencies: [
                "CachedClientMutations", "CachedClientCalls", "CachedClientFileStore", "CachedClientHTTP", "CachedClientQueries",
                "CachedClientStore", "CachedClientValues", "CachedClientTestSupport", "FixtureServerSupport", "StoreTestSupport",
            ]),
        .testTarget(
            name: "CachedClientQueriesTests",
            dependencies: [
                "CachedClientQueries", "CachedClientCalls", "CachedClientFileStore", "CachedClientHTTP", "CachedClientMutations",
                "CachedClientStore", "CachedClientValues", "CachedClientTestSupport", "FixtureServerSupport",
            ]),
        // The store conformance suite of CachedClientTesting, run on the package's stores.
        .testTarget(
            name: "CachedClientTestingTests",
            dependencies: ["CachedClientTesting", "CachedClientRuntime", "CachedClientValues", "CachedClientTestSupport"]),
        .testTarget(
            name: "CachedClientIntegrationTests",
            dependencies: [
                "CachedClientRuntime", "CachedClientFileStore", "CachedClientValues", "CachedClientTestSupport",
                "FixtureServerSupport", "StoreTestSupport", "StoreWriter", "CancellationProbe",
            ]),
        // The code of every DocC article (one file per article), compiled and run against the
        // Accounts client (Generated/ links to its golden files: always the generator's output).
        .testTarget(name: "DocumentationTests", dependencies: ["CachedClientRuntime", "CachedClientTesting"]),
        .testTarget(
            name: "GeneratedClientTests",
            dependencies: ["CachedClientRuntime", "CachedClientTesting", "FixtureServerSupport"],
            exclude: ["Golden/README.md"]
        ),
    ]
)

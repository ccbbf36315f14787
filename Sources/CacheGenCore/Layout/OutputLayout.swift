/// Where each generated declaration goes: a fixed set of files per spec, so the build plugin
/// can name its outputs before the generator runs and without reading the spec.
///
/// Models go to one of `modelShardCount` files, repositories (protocol, convenience
/// extension, live type with its endpoints and requests) to one of `repositoryShardCount`,
/// mocks to one of `mockShardCount`, each chosen by a stable hash of the declaration's spec
/// name: adding or removing a model or repository never moves another one to a different
/// file, so an edit recompiles only the files it touches. The response shapes of the cached
/// endpoints go to one file of their own: an edit to one model changes the shape of every
/// response that reaches it (in an API whose models form a cycle, every response), and with
/// the shapes apart only that small file changes, not every repository's. A shard with
/// nothing in it is still written (as a comment), so the set of files never depends on the
/// spec's contents.
///
/// The counts trade an edit's cost against the number of files. Smaller shards mean a model
/// edit recompiles fewer declarations; but in a debug build the compiler's driver gives each
/// frontend job at most 25 files, so past 50 files a 2-core machine runs a third job after the
/// first two and a clean build takes longer. 41 files keep two jobs there, and as many as
/// there are cores on larger machines.
///
/// `Plugins/PluginsShared/CacheGenInputs.swift` mirrors the counts and names (plugins cannot link
/// library targets); `OutputLayoutTests` checks that the two agree.
public struct OutputLayout: Sendable, Hashable {
    /// Files holding the models.
    public static let modelShardCount = 16
    /// Files holding repositories: protocol, live type, endpoints and requests.
    public static let repositoryShardCount = 16
    /// Files holding mock repositories, apart so that apps' code never waits for them.
    public static let mockShardCount = 8
    /// Files holding the response shapes of the cached endpoints.
    public static let shapeShardCount = 1

    /// What one file holds.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Models, by the hash of their spec name.
        case models = "Models"
        /// Repositories, by the hash of their spec name.
        case repositories = "Repositories"
        /// Mock repositories, by the hash of their repository's spec name.
        case mocks = "Mocks"
        /// The response shapes of every repository's cached endpoints.
        case shapes = "Shapes"

        /// How many files of this kind every spec gets.
        public var shardCount: Int {
            switch self {
            case .models: OutputLayout.modelShardCount
            case .repositories: OutputLayout.repositoryShardCount
            case .mocks: OutputLayout.mockShardCount
            case .shapes: OutputLayout.shapeShardCount
            }
        }
    }

    /// One file of the set.
    public struct File: Sendable, Hashable {
        /// What the file holds.
        public var kind: Kind
        /// Which shard of its kind, from 0.
        public var shard: Int
    }

    /// The spec's base name (`Accounts` for `Accounts.cachegen.json`), the prefix of every file
    /// name, so that specs in one target never write the same name.
    public let specName: String

    /// The layout for a spec, overlay or document file; folders and the `.cachegen.json`,
    /// `.json`, `.yaml` or `.yml` suffix are dropped (`petstore.yaml` → `petstore`).
    public init(forSpec path: String) {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        for suffix in [".json", ".yaml", ".yml", ".cachegen"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
        }
        specName = name
    }

    /// Every file, in a fixed order: models, repositories, mocks, shapes, each by shard.
    public static var files: [File] {
        Kind.allCases.flatMap { kind in (0..<kind.shardCount).map { File(kind: kind, shard: $0) } }
    }

    /// `Accounts+Models3.cachegen.swift`.
    public func fileName(_ file: File) -> String {
        "\(specName)+\(file.kind.rawValue)\(file.shard).cachegen.swift"
    }

    /// Every file name of the spec, in the order of `files`.
    public var fileNames: [String] { Self.files.map(fileName) }

    /// Whether `name` is a file cachegen wrote for this spec, in this layout or an earlier
    /// one (`Accounts.cachegen.swift`, a shard that no longer exists): such a file that is not
    /// in `fileNames` is stale. Another spec's files never match, even one named `Accounts.V2`.
    public func isGeneratedFile(_ name: String) -> Bool {
        if name == specName + ".cachegen.swift" { return true }
        let prefix = specName + "+"
        let suffix = ".cachegen.swift"
        guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.count > prefix.count + suffix.count else { return false }
        let shard = name.dropFirst(prefix.count).dropLast(suffix.count)
        return shard.allSatisfy { $0.isLetter || $0.isNumber }
    }

    /// The shard of a declaration named `name` in the spec, stable across runs and
    /// platforms (FNV-1a over its UTF-8 bytes; Swift's `Hasher` is seeded per process).
    public static func shard(of name: String, kind: Kind) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return Int(hash % UInt64(kind.shardCount))
    }
}

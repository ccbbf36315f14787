/// Where each generated declaration goes: a set of files sized to the spec, so the build
/// plugin can name its outputs before the generator runs, from the size of its input files.
///
/// Models go to one of `shardCount(.models)` files, repositories (protocol, convenience
/// extension, live type with its endpoints and requests) to one of `shardCount(.repositories)`,
/// mocks to one of `shardCount(.mocks)`, each chosen by a stable hash of the declaration's
/// spec name: adding or removing a model or repository never moves another one to a different
/// file, so an edit recompiles only the files it touches. The response shapes of the cached
/// endpoints go to one file of their own: an edit to one model changes the shape of every
/// response that reaches it (in an API whose models form a cycle, every response), and with
/// the shapes apart only that small file changes, not every repository's. A shard with
/// nothing in it is still written (as a comment), so the set of files depends only on `size`.
///
/// `size` trades an edit's cost against the number of files. A small spec is three files:
/// its models, its repositories (with the shapes) and its mocks. A large one (about 500
/// endpoints) needs small shards so that a model edit recompiles few declarations; but in a
/// debug build the compiler's driver gives each frontend job at most 25 files, so past 50
/// files a 2-core machine runs a third job after the first two and a clean build takes
/// longer. 41 files keep two jobs there, and as many as there are cores on larger machines.
/// The size comes from the bytes of the input files (`Size.init(inputBytes:)`), which the
/// build plugin knows before the tool runs; a spec that crosses a threshold moves its
/// declarations once.
///
/// `Plugins/PluginsShared/CacheGenInputs.swift` mirrors the sizes, counts and names (plugins
/// cannot link library targets); `OutputLayoutTests` checks that the two agree.
public struct OutputLayout: Sendable, Hashable {
    /// How many files a spec gets, by the size of its input.
    public enum Size: String, Sendable, Hashable, CaseIterable {
        /// Under 16 KB of input (a spec of a few dozen endpoints): three files.
        case small
        /// Under 64 KB: 4 model files, 4 repository files, 2 mock files and the shapes.
        case medium
        /// 64 KB and more (about 300 endpoints of a spec): 16, 16, 8 and the shapes.
        case large

        /// The size for input files (the spec, or the overlay, its document and the files
        /// the document's `$ref`s name) of `inputBytes` bytes in all.
        public init(inputBytes: Int) {
            self = inputBytes < 16 * 1024 ? .small : inputBytes < 64 * 1024 ? .medium : .large
        }
    }

    /// Which of a spec's declarations are written: an app compiles its clients, and mocks go
    /// where tests are.
    public enum Mocks: String, Sendable, Hashable, CaseIterable {
        /// Models, repositories and mocks: the CLI's default, and a test target's own specs.
        case included
        /// Models and repositories, and for each mock a declaration that says where it went:
        /// what an app's target compiles.
        case excluded
        /// Only the mocks, importing the module that holds the clients: what a test target
        /// compiles for the specs of the targets it depends on.
        case only
    }

    /// What one file holds.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Models, by the hash of their spec name.
        case models = "Models"
        /// Repositories, by the hash of their spec name.
        case repositories = "Repositories"
        /// Mock repositories, by the hash of their repository's spec name.
        case mocks = "Mocks"
        /// The response shapes of every repository's cached endpoints (with the repositories
        /// in a small layout).
        case shapes = "Shapes"
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

    /// How many files the spec gets.
    public let size: Size

    /// Which declarations are written: a kind that is not has no files.
    public let mocks: Mocks

    /// The layout for a spec, overlay or document file; folders and the `.cachegen.json`,
    /// `.json`, `.yaml` or `.yml` suffix are dropped (`petstore.yaml` → `petstore`).
    public init(forSpec path: String, size: Size, mocks: Mocks = .included) {
        self.size = size
        self.mocks = mocks
        specName = Self.specName(of: path)
    }

    /// The name a spec, overlay or document file gives its output files: `petstore.yaml` →
    /// `petstore`, `Specs/Accounts.cachegen.json` → `Accounts`.
    public static func specName(of path: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        for suffix in [".json", ".yaml", ".yml", ".cachegen"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
        }
        return name
    }

    /// How many files of `kind` a spec of this size gets.
    public func shardCount(_ kind: Kind) -> Int {
        switch (mocks, kind) {
        case (.excluded, .mocks): return 0
        case (.only, .models), (.only, .repositories), (.only, .shapes): return 0
        default: break
        }
        return switch (size, kind) {
        case (.small, .shapes): 0
        case (.small, _): 1
        case (.medium, .models), (.medium, .repositories): 4
        case (.medium, .mocks): 2
        case (.large, .models), (.large, .repositories): 16
        case (.large, .mocks): 8
        case (_, .shapes): 1
        }
    }

    /// Every file, in a fixed order: models, repositories, mocks, shapes, each by shard.
    public var files: [File] {
        Kind.allCases.flatMap { kind in (0..<shardCount(kind)).map { File(kind: kind, shard: $0) } }
    }

    /// The file that holds the model, repository or mock named `name`, by its shard.
    public func file(of name: String, kind: Kind) -> File {
        File(kind: kind, shard: Self.shard(of: name, count: shardCount(kind)))
    }

    /// The file that holds the response shapes: their own, or the first repository file in a
    /// layout without one.
    public var shapesFile: File {
        shardCount(.shapes) == 0 ? File(kind: .repositories, shard: 0) : File(kind: .shapes, shard: 0)
    }

    /// `Accounts+Models3.cachegen.swift`.
    public func fileName(_ file: File) -> String {
        "\(specName)+\(file.kind.rawValue)\(file.shard).cachegen.swift"
    }

    /// Every file name of the spec, in the order of `files`.
    public var fileNames: [String] { files.map(fileName) }

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

    /// The shard of a declaration named `name` among `count`, stable across runs and
    /// platforms (FNV-1a over its UTF-8 bytes; Swift's `Hasher` is seeded per process).
    public static func shard(of name: String, count: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return Int(hash % UInt64(count))
    }
}

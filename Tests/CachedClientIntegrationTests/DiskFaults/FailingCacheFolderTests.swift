import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) @testable import CachedClientRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A `FileCacheStore` whose folder really fails (read-only, full, gone): every call the
/// network can serve still succeeds, and each failure is an `.error` event.
///
/// Tests run as root in CI, and root ignores permission bits, so "read-only" is made with
/// `chattr +i` (the immutable flag binds root too) when running as root, and with mode
/// 0500 otherwise; "full" is a 64 KB tmpfs mounted for the test, which needs root; both are
/// probed first and the test is left out where the machine cannot do it. A folder replaced
/// by a file, and a store that throws `ENOSPC`, need nothing and always run.
@Suite("FileCacheStore in a failing folder", .timeLimit(.minutes(1)))
struct FailingCacheFolderTests {
    /// A client over a `FileCacheStore` in `directory`, answering `Fixtures.alice`.
    struct Setup {
        let transport = StubTransport(json: Fixtures.alice)
        let clock = TestClock()
        let events = EventLog()
        let client: CachedClient

        init(directory: URL, wrap: (FileCacheStore) -> any CacheStore = { $0 }) throws {
            client = CachedClient(
                baseURL: Fixtures.baseURL, store: wrap(try FileCacheStore(directory: directory, now: clock.function)),
                transport: transport, partition: "user-1", now: clock.function, events: events.record,
                memoryCacheLimit: 0)  // every answer below comes from the folder, not from memory
        }

        /// One call, then waits for the write it started: each call below meets the folder
        /// as the previous one left it, and its write failure is reported before the next.
        func account(_ policy: CachePolicy? = nil, id: String = "1") async throws -> CachedValue<Account> {
            try await client.settledAccount(id: id, policy: policy)
        }

        var errors: [String] { events.all.filter { $0.kind == .error }.compactMap(\.message) }
    }

    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "cachegen-failing-\(UUID().uuidString)")
    }

    @Test(.enabled(if: ReadOnlyFolder.method != nil, "this machine can make no folder read-only"))
    func aReadOnlyFolderStillServesStoredEntriesAndNeverFailsACall() async throws {
        let readOnly = try #require(ReadOnlyFolder.method)
        let directory = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try Setup(directory: directory)
        _ = try await setup.account()  // stored before the folder turns read-only
        try readOnly.apply(to: directory)
        defer { try? readOnly.undo(at: directory) }
        setup.clock.advance(by: Fixtures.ttl + 1)
        setup.transport.respond(status: 200, body: Fixtures.body(Fixtures.aliceLater))

        #expect(try await setup.account() == .fresh(value: Fixtures.aliceLater))  // could not be stored
        #expect(try await setup.account(id: "2") == .fresh(value: Fixtures.aliceLater))  // nor a new entry
        try await setup.client.perform(
            EndpointRequest(method: "DELETE", path: "/accounts/1"), endpoint: Fixtures.uncached,
            invalidating: [Invalidation(Fixtures.endpoint())])  // nor removed
        setup.transport.fail()
        #expect(try await setup.account() == .cached(value: Fixtures.alice, date: Fixtures.start))  // still read

        let errors = setup.errors
        #expect(errors.count == 3)
        guard errors.count == 3 else { return }
        #expect(errors[0].hasPrefix("write failed: FileCacheStore could not create a temporary file in "), "\(errors[0])")
        #expect(errors[1].hasPrefix("write failed: FileCacheStore could not create folder "), "\(errors[1])")
        #expect(
            errors[2].hasPrefix("invalidation by TransferRepository.createTransfer failed: FileCacheStore could not remove "),
            "\(errors[2])")
    }

    /// Mounting needs root; `aStoreThatReportsAFullDiskNeverFailsACall` covers ENOSPC everywhere.
    @Test(.enabled(if: TinyFileSystem.isAvailable, "mounting a tmpfs needs root"))
    func aFullFolderStillServesStoredEntriesAndNeverFailsACall() async throws {
        let directory = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mount = try TinyFileSystem(at: directory)
        defer { mount.unmount() }
        let setup = try Setup(directory: directory)
        _ = try await setup.account()  // stored while there is room
        try mount.fill()
        setup.clock.advance(by: Fixtures.ttl + 1)
        setup.transport.respond(status: 200, body: Fixtures.body(Fixtures.aliceLater))

        #expect(try await setup.account() == .fresh(value: Fixtures.aliceLater))
        setup.transport.fail()
        #expect(try await setup.account() == .cached(value: Fixtures.alice, date: Fixtures.start))

        #expect(setup.errors.count == 1)
        #expect(setup.errors.first?.hasSuffix("No space left on device (errno \(ENOSPC))") == true, "\(setup.errors)")
        #expect(setup.events.kinds == [.store, .error, .fallback])
    }

    @Test func aStoreThatReportsAFullDiskNeverFailsACall() async throws {
        let directory = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try Setup(directory: directory) { NoSpaceStore(files: $0) }

        for policy in CachePolicy.allCases where policy != .cacheOnly {
            #expect(try await setup.account(policy) == .fresh(value: Fixtures.alice), "\(policy)")
        }
        await setup.client.waitForBackgroundRefreshes()

        #expect(setup.errors.count == 4)
        #expect(setup.errors.allSatisfy { $0.hasSuffix("No space left on device (errno \(ENOSPC))") })
    }

    @Test func aFolderReplacedByAFileFailsEveryOperationButNoCall() async throws {
        let directory = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try Setup(directory: directory)
        // Behind the store's back, its entry folder becomes a regular file: every open,
        // create and rename under it fails with ENOTDIR, for root too.
        let entries = directory.appending(path: FileCacheStore.layoutFolderName)
        try FileManager.default.removeItem(at: entries)
        try Data("not a folder".utf8).write(to: entries)

        for policy in CachePolicy.allCases where policy != .cacheOnly {
            #expect(try await setup.account(policy) == .fresh(value: Fixtures.alice), "\(policy)")
        }
        await setup.client.waitForBackgroundRefreshes()
        await #expect(throws: CachedClientError.notCached(endpoint: "AccountRepository.getAccount")) {
            try await setup.account(.cacheOnly)
        }
        try await setup.client.perform(
            EndpointRequest(method: "DELETE", path: "/accounts/1"), endpoint: Fixtures.uncached,
            invalidating: [Invalidation(Fixtures.endpoint())])

        #expect(setup.errors.count == 4)
        #expect(setup.errors.allSatisfy { $0.hasSuffix("Not a directory (errno \(ENOTDIR))") }, "\(setup.errors)")
        #expect(!setup.events.kinds.contains(.store))
    }
}

// MARK: - Failing folders

/// Makes a folder tree read-only for this process: `chattr +i` as root, mode 0500 otherwise.
enum ReadOnlyFolder: Sendable {
    case immutable, permissions

    /// How this machine can make a folder read-only, found by trying it once; `nil` if it cannot.
    static let method: ReadOnlyFolder? = {
        let probe = FailingCacheFolderTests.temporaryFolder()
        defer {
            _ = try? ReadOnlyFolder.immutable.undo(at: probe)
            try? FileManager.default.removeItem(at: probe)
        }
        guard (try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)) != nil else { return nil }
        let method: ReadOnlyFolder = geteuid() == 0 ? .immutable : .permissions
        guard (try? method.apply(to: probe)) != nil else { return nil }
        let writable = FileManager.default.createFile(atPath: probe.appending(path: "probe").path, contents: Data())
        try? method.undo(at: probe)
        return writable ? nil : method
    }()

    /// Makes every folder under and including `url` read-only (files stay readable).
    func apply(to url: URL) throws {
        switch self {
        case .immutable: try run("/usr/bin/env", ["chattr", "-R", "+i", url.path])
        case .permissions: try setModes(under: url, 0o500)
        }
    }

    /// Makes the tree writable again, so it can be deleted.
    func undo(at url: URL) throws {
        switch self {
        case .immutable: try run("/usr/bin/env", ["chattr", "-R", "-i", url.path])
        case .permissions: try setModes(under: url, 0o700)
        }
    }

    private func setModes(under url: URL, _ mode: Int) throws {
        let folders = (FileManager.default.subpaths(atPath: url.path) ?? []).map { url.path + "/" + $0 }
            .filter { path in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            }
        for folder in [url.path] + folders {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: folder)
        }
    }
}

/// A 64 KB tmpfs mounted on a folder, so the store's writes really fail with ENOSPC.
struct TinyFileSystem {
    let url: URL

    /// Whether this process may mount one (root with mount rights on Linux).
    static let isAvailable: Bool = {
        #if os(Linux)
        guard geteuid() == 0 else { return false }
        let probe = FailingCacheFolderTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: probe) }
        guard let mounted = try? TinyFileSystem(at: probe) else { return false }
        mounted.unmount()
        return true
        #else
        return false
        #endif
    }()

    init(at url: URL) throws {
        self.url = url
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try run("/usr/bin/env", ["mount", "-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", url.path])
    }

    /// Fills the file system with one file until a write fails for lack of space.
    func fill() throws {
        let path = url.path + "/filler"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        let block = [UInt8](repeating: 0x55, count: 4_096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        guard errno == ENOSPC else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    func unmount() {
        try? run("/usr/bin/env", ["umount", url.path])
    }
}

/// A store whose writes fail as on a full disk, with the error `FileCacheStore` throws then.
struct NoSpaceStore: ForwardingStore {
    let files: FileCacheStore
    var inner: any CacheStore { files }

    func entry(for key: CacheKey) async throws -> CacheEntry? { try await inner.entry(for: key) }
    func setEntry(_ entry: CacheEntry, for key: CacheKey) async throws {
        throw FileCacheStoreError(operation: "write", path: files.entryPath(for: key), code: ENOSPC)
    }
}

/// Runs a command and waits; throws when it fails.
private func run(_ executable: String, _ arguments: [String]) throws {
    struct CommandFailed: Error { var status: Int32 }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try ChildProcess.start(process)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CommandFailed(status: process.terminationStatus) }
}
